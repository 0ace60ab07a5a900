// Throughput of checksum verification; driven by run.sh, which also measures the
// baselines (cat, CANDLE's Python loop) on the same files in the same run.
//
//   bench_verify memory [--mib N] [--reps R]
//       ISA-L vs zlib CRC-32 on an in-memory buffer.
//   bench_verify files --crcs LIST [--reps R] [--threads T] [--split MIB]
//                [--block KIB] [--strategy read|mmap]   (Verifier's defaults otherwise)
//       Verifier over the files of LIST ("<decimal crc> <path>" per line).
// Prints "key=value" pairs; medians over R repetitions.

#include "checksum/Crc32.h"
#include "checksum/Verifier.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <isa-l/crc.h>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include <zlib.h>

using namespace ckpt;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

template <typename F> double timed(F&& f)
{
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::map<std::string, std::string> parseArgs(int argc, char** argv, int from)
{
    std::map<std::string, std::string> args;
    for (int i = from; i + 1 < argc; i += 2)
        args[argv[i]] = argv[i + 1];
    return args;
}

std::string arg(const std::map<std::string, std::string>& args, const std::string& key,
                const std::string& fallback)
{
    auto it = args.find(key);
    return it == args.end() ? fallback : it->second;
}

int memory(const std::map<std::string, std::string>& args)
{
    const std::size_t bytes = std::stoul(arg(args, "--mib", "256")) << 20;
    const int reps = std::stoi(arg(args, "--reps", "5"));
    std::vector<unsigned char> buf(bytes);
    std::mt19937_64 gen(1);
    for (std::size_t i = 0; i + 8 <= bytes; i += 8) {
        const auto x = gen();
        std::memcpy(&buf[i], &x, 8);
    }
    std::vector<double> isal, zlib;
    std::uint32_t a = 0, b = 0;
    for (int r = 0; r < reps; ++r) {
        isal.push_back(timed([&] { a = Crc32::update(0, buf.data(), bytes); }));
        zlib.push_back(timed([&] {
            uLong crc = 0;
            // zlib takes uInt lengths: feed it in 1 GiB slices like Python does.
            for (std::size_t off = 0; off < bytes; off += std::size_t{1} << 30) {
                const auto n = std::min<std::size_t>(bytes - off, std::size_t{1} << 30);
                crc = crc32(crc, buf.data() + off, static_cast<uInt>(n));
            }
            b = static_cast<std::uint32_t>(crc);
        }));
    }
    if (a != b) {
        std::fprintf(stderr, "CRC differs: isa-l %u zlib %u\n", a, b);
        return 1;
    }
    const double gb = static_cast<double>(bytes) / 1e9;
    std::printf("bytes=%zu isal_s=%.6f zlib_s=%.6f isal_gbps=%.2f zlib_gbps=%.2f ratio=%.2f\n",
                bytes, median(isal), median(zlib), gb / median(isal), gb / median(zlib),
                median(zlib) / median(isal));
    return 0;
}

int files(const std::map<std::string, std::string>& args)
{
    std::ifstream list(arg(args, "--crcs", ""));
    if (!list) {
        std::fprintf(stderr, "bench_verify files: --crcs LIST is required\n");
        return 2;
    }
    Run run;
    run.root = "bench";
    run.layout = "candle";
    std::string line;
    while (std::getline(list, line)) {
        std::istringstream in(line);
        std::string crc, path;
        if (!(in >> crc) || !std::getline(in >> std::ws, path))
            continue;
        Epoch e;
        e.number = static_cast<int>(run.epochs.size()) + 1;
        e.dir = std::filesystem::path(path).parent_path().string();
        e.recorded = true;
        EpochFile model;
        model.name = std::filesystem::path(path).filename().string();
        model.present = true;
        model.model = true;
        model.algo = ChecksumAlgo::Crc32;
        model.checksum = crc;
        e.files.push_back(model);
        run.epochs.push_back(std::move(e));
    }
    Verifier::Options options; // the defaults unless told otherwise
    options.threads = std::stoi(arg(args, "--threads", "0"));
    options.splitBytes = std::stoull(arg(args, "--split", "64")) << 20;
    if (args.count("--block"))
        options.reader.blockBytes = std::stoull(args.at("--block")) << 10;
    if (args.count("--strategy"))
        options.reader.strategy =
            args.at("--strategy") == "mmap" ? CrcReader::Strategy::Mmap : CrcReader::Strategy::Read;
    const int reps = std::stoi(arg(args, "--reps", "5"));
    std::vector<double> seconds;
    std::uint64_t bytes = 0;
    for (int r = 0; r < reps; ++r) {
        auto report = Verifier::verifyRun(run, options);
        if (!report) {
            std::fprintf(stderr, "%s\n", report.error().message.c_str());
            return 1;
        }
        if (report->totals.count(VerifyStatus::Ok) != static_cast<int>(run.epochs.size())) {
            std::fprintf(stderr, "not every file verified ok\n");
            return 1;
        }
        bytes = report->totals.bytes;
        seconds.push_back(report->totals.seconds);
    }
    std::printf("bytes=%llu seconds=%.6f files=%zu\n", static_cast<unsigned long long>(bytes),
                median(seconds), run.epochs.size());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc >= 2 && std::strcmp(argv[1], "memory") == 0)
        return memory(parseArgs(argc, argv, 2));
    if (argc >= 2 && std::strcmp(argv[1], "files") == 0)
        return files(parseArgs(argc, argv, 2));
    std::fprintf(stderr, "usage: bench_verify memory|files [options]\n");
    return 2;
}
