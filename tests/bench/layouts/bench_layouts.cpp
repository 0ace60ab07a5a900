// Scanning cost per epoch of each layout against CANDLE's, same run, same
// number of checkpoints. `bench_layouts make DIR N` writes one run of N
// checkpoints per layout under DIR/<layout> (names and small files as each
// framework writes them); `bench_layouts time DIR REPS` scans each folder with
// Scanner::scan (warm cache, interleaved) and prints the median microseconds
// per epoch, the ratio to CANDLE's and an @result line per layout. A layout
// that does not find all N epochs fails the bench.
#include "CandleFixture.h"
#include "scan/Scanner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using ckpt::test::CandleFixture;

namespace {

void write(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

void makeCandle(const fs::path& root, int n)
{
    CandleFixture f(root);
    for (int e = 1; e <= n; ++e)
        f.addEpoch(e, 1.0 / e, 64, e == 1);
    f.linkRelative("last", n);
    f.linkRelative("best", n);
}

// A whole 96-byte HDF5 file as far as a scan looks: a version 0 superblock
// (offsets and lengths of 8 bytes) whose end-of-file address is its size.
std::string hdf5Head()
{
    std::string b("\x89HDF\r\n\x1a\n", 8);
    b.append({0, 0, 0, 0, 0, 8, 8, 0, 4, 0, 16, 0, 0, 0, 0, 0}); // versions, sizes, K, flags
    const auto address = [&](std::uint64_t v) {
        for (int i = 0; i < 8; ++i)
            b.push_back(static_cast<char>(v >> (8 * i)));
    };
    address(0);     // base address
    address(~0ull); // no free-space info
    address(96);    // end of file: the file's size
    address(~0ull); // no driver information
    b.resize(96, '\0');
    return b;
}

// A finished zip as far as a scan looks: data, then an empty end-of-central-
// directory record (what makes torch.save's archive whole), 64 bytes in all.
std::string zipWhole()
{
    std::string b(42, 'x');
    b.append("PK\x05\x06", 4);
    b.append(18, '\0');
    return b;
}

// Name patterns as the frameworks write them (../shared/formats.md section 3),
// each file whole as its layout checks it: the scan's usual path, not its
// problem messages.
void makeFiles(const fs::path& dir, int n, const std::string& layout)
{
    fs::create_directories(dir);
    const std::string body = layout == "keras"       ? hdf5Head()
                             : layout == "lightning" ? zipWhole()
                                                     : std::string(64, 'x');
    for (int e = 1; e <= n; ++e) {
        char name[128];
        if (layout == "lightning")
            std::snprintf(name, sizeof name, "epoch=%d-step=%d.ckpt", e - 1, e * 100);
        else if (layout == "mindspore")
            std::snprintf(name, sizeof name, "net-%d_%d.ckpt", e, 100);
        else // keras
            std::snprintf(name, sizeof name, "weights.%05d-%.2f.h5", e, 1.0 / e);
        write(dir / name, body);
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: bench_layouts make DIR N | time DIR REPS\n");
        return 2;
    }
    const std::string mode = argv[1];
    const fs::path dir = fs::absolute(argv[2]);
    const std::vector<std::string> layouts = {"candle", "lightning", "mindspore", "keras"};
    if (mode == "make") {
        const int n = std::atoi(argv[3]);
        makeCandle(dir / "candle" / "run" / "ckpts", n);
        for (std::size_t i = 1; i < layouts.size(); ++i)
            makeFiles(dir / layouts[i] / "run", n, layouts[i]);
        std::ofstream(dir / "N") << n;
        return 0;
    }
    const int reps = std::max(3, std::atoi(argv[3]));
    int n = 0;
    std::ifstream(dir / "N") >> n;
    std::map<std::string, std::vector<double>> times;
    std::map<std::string, std::size_t> found;
    std::map<std::string, std::string> names;
    for (int r = 0; r <= reps; ++r) { // the first pass warms the caches
        for (const std::string& layout : layouts) {
            const auto t0 = std::chrono::steady_clock::now();
            auto scan = ckpt::Scanner::scan(dir / layout);
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::size_t epochs = 0;
            std::string seen;
            if (scan)
                for (const auto& run : scan->runs) {
                    epochs += run.epochs.size();
                    seen += (seen.empty() ? "" : ",") + run.layout;
                }
            found[layout] = epochs;
            names[layout] = seen;
            if (r > 0)
                times[layout].push_back(s);
        }
    }
    const double candle = median(times["candle"]) / n;
    bool ok = true;
    std::printf("%-10s %10s %12s %8s %s\n", "layout", "epochs", "us/epoch", "ratio", "found as");
    for (const std::string& layout : layouts) {
        const double per = median(times[layout]) / n;
        const bool all = found[layout] == static_cast<std::size_t>(n);
        std::printf("%-10s %10zu %12.2f %7.2fx %s\n", layout.c_str(), found[layout], per * 1e6,
                    per / candle, names[layout].c_str());
        if (layout == "candle")
            continue;
        const bool met = all && per <= candle;
        ok = ok && met;
        std::printf("@result|scan|%d %s checkpoints: scan cost per epoch vs CANDLE's (%.1f vs "
                    "%.1f us)%s|%.2fx|<= 1x|%s\n",
                    n, layout.c_str(), per * 1e6, candle * 1e6,
                    all ? "" : " (NOT ALL EPOCHS FOUND)", per / candle, met ? "MET" : "MISSED");
    }
    return ok ? 0 : 1;
}
