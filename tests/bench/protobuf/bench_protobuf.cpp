// MindSpore benchmark.
//   bench_protobuf make DIR N        N checkpoint files (with CRC trailers) in DIR
//   bench_protobuf scan DIR [REPS]   median Scanner::scan time, per epoch
//   bench_protobuf big FILE MIB      one checkpoint with a MIB-MiB float32 tensor, split
//                                    in 64 MiB parts as MindSpore splits over 512 MiB
//   bench_protobuf read FILE         raw pread throughput vs TensorSourceStats, peak RSS
//   bench_protobuf diff A B          read() of both files vs TensorSourceDiff
#include "ProtobufFixture.h"
#include "scan/Scanner.h"
#include "tensor/TensorSourceDiff.h"
#include "tensor/TensorSourceStats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using ckpt::test::MsTensor;
using ckpt::test::ProtobufFixture;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

int make(const fs::path& dir, int n)
{
    fs::create_directories(dir);
    const std::string bytes = ProtobufFixture::mindspore(ProtobufFixture::network(1, 10), true);
    for (int e = 1; e <= n; ++e)
        ProtobufFixture::write(dir / ("net-" + std::to_string(e) + "_10.ckpt"), bytes);
    return 0;
}

int scan(const fs::path& dir, int reps)
{
    std::vector<double> times;
    std::size_t epochs = 0;
    for (int i = 0; i < reps; ++i) {
        const auto t = Clock::now();
        auto out = ckpt::Scanner::scan(dir);
        times.push_back(secondsSince(t));
        if (!out)
            return 1;
        epochs = 0;
        for (const auto& r : out->runs)
            epochs += r.epochs.size();
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    std::printf("scan: %zu epochs, median %.3f s, %.2f us/epoch\n", epochs, median,
                epochs ? median * 1e6 / double(epochs) : 0.0);
    return 0;
}

int big(const fs::path& file, int mib)
{
    std::string content(std::size_t(mib) << 20, '\0');
    auto* f = reinterpret_cast<float*>(content.data());
    for (std::size_t i = 0; i < content.size() / 4; ++i)
        f[i] = float(i % 1000) * 0.001f;
    const std::int64_t n = std::int64_t(content.size() / 4);
    std::vector<MsTensor> tensors{{"w", "Float32", {n}, std::move(content), std::max(1, mib / 64)}};
    ProtobufFixture::write(file, ProtobufFixture::mindspore(tensors, true));
    return 0;
}

int read(const fs::path& file)
{
    {
        const int fd = ::open(file.c_str(), O_RDONLY);
        std::vector<char> buf(1 << 20);
        std::uint64_t total = 0;
        const auto t = Clock::now();
        for (ssize_t got; (got = ::read(fd, buf.data(), buf.size())) > 0;)
            total += std::uint64_t(got);
        const double s = secondsSince(t);
        ::close(fd);
        std::printf("raw read: %.1f MiB/s\n", double(total) / s / 1048576.0);
    }
    {
        // The reader alone: every tensor through TensorSource::read in 1 MiB blocks.
        auto src = ckpt::TensorSources::open(file.string());
        if (!src)
            return 1;
        std::vector<char> buf(1 << 20);
        std::uint64_t total = 0;
        const auto t = Clock::now();
        for (std::size_t i = 0; i < (*src)->tensors().size(); ++i) {
            const auto& info = (*src)->tensors()[i];
            if (!info.dtype.numeric())
                continue;
            const std::uint64_t per = buf.size() / std::uint64_t(info.dtype.size);
            for (std::uint64_t at = 0; at < info.elements; at += per) {
                const std::uint64_t n = std::min(per, info.elements - at);
                if (!(*src)->read(i, at, n, buf.data()))
                    return 1;
                total += n * std::uint64_t(info.dtype.size);
            }
        }
        std::printf("reader blocks: %.1f MiB/s\n", double(total) / secondsSince(t) / 1048576.0);
    }
    const auto t = Clock::now();
    auto src = ckpt::TensorSources::open(file.string());
    if (!src) {
        std::fprintf(stderr, "%s\n", src.error().message.c_str());
        return 1;
    }
    auto stats = ckpt::TensorSourceStats::of(**src);
    const double s = secondsSince(t);
    if (!stats)
        return 1;
    std::uint64_t bytes = 0;
    for (const auto& t2 : (*src)->tensors())
        bytes += t2.bytes;
    rusage ru = {};
    ::getrusage(RUSAGE_SELF, &ru);
    std::printf("open+stats: %.1f MiB/s, peak RSS %ld MiB\n", double(bytes) / s / 1048576.0,
                ru.ru_maxrss / 1024);
    return 0;
}

// The weight diff of two files through TensorSourceDiff against reading both
// files' bytes with read() in 1 MiB blocks, one thread each way.
int diff(const fs::path& a, const fs::path& b)
{
    std::uint64_t total = 0;
    const auto t0 = Clock::now();
    for (const fs::path& file : {a, b}) {
        const int fd = ::open(file.c_str(), O_RDONLY);
        std::vector<char> buf(1 << 20);
        for (ssize_t got; (got = ::read(fd, buf.data(), buf.size())) > 0;)
            total += std::uint64_t(got);
        ::close(fd);
    }
    const double raw = secondsSince(t0);
    const auto t1 = Clock::now();
    auto srcA = ckpt::TensorSources::open(a.string());
    auto srcB = ckpt::TensorSources::open(b.string());
    if (!srcA || !srcB)
        return 1;
    auto d = ckpt::TensorSourceDiff::diff(**srcA, **srcB, ckpt::TensorDiff::Options{});
    const double ours = secondsSince(t1);
    if (!d)
        return 1;
    std::printf("diff: raw %.1f MiB/s, ours %.1f MiB/s, ratio %.2f\n",
                double(total) / raw / 1048576.0, double(total) / ours / 1048576.0, raw / ours);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string cmd = argc > 2 ? argv[1] : "";
    if (cmd == "diff" && argc == 4)
        return diff(argv[2], argv[3]);
    if (cmd == "make" && argc == 4)
        return make(argv[2], std::atoi(argv[3]));
    if (cmd == "scan")
        return scan(argv[2], argc > 3 ? std::atoi(argv[3]) : 5);
    if (cmd == "big" && argc == 4)
        return big(argv[2], std::atoi(argv[3]));
    if (cmd == "read")
        return read(argv[2]);
    std::fprintf(stderr, "usage: see the comment at the top of bench_protobuf.cpp\n");
    return 2;
}
