// Discovery benchmark. `bench_scan make DIR` builds a tree of CANDLE runs;
// `bench_scan time DIR` measures, on a warm page cache, the bare-syscall
// baseline (the scanner's system calls, no parsing, same threads) and
// Scanner::scan, printing the median of several repetitions; `bench_scan once
// DIR` is one baseline pass as a process, timed against `ckpt scan` by run.sh.
#include "CandleFixture.h"
#include "scan/Scanner.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using ckpt::test::CandleFixture;

namespace {

int usage()
{
    std::fprintf(stderr, "usage: bench_scan make DIR [RUNS EPOCHS MODEL_BYTES]\n"
                         "       bench_scan time DIR [REPS]\n"
                         "       bench_scan once DIR [BYTES_PER_EPOCH]\n"
                         "       bench_scan rss COMMAND [ARGS...]\n");
    return 2;
}

void writeFile(const std::string& path, const std::string& content)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::write(fd, content.data(), content.size()) != ssize_t(content.size())) {
        std::perror(path.c_str());
        std::exit(1);
    }
    ::close(fd);
}

// Plain syscalls rather than the test fixture: building 20,000 files has to be
// quick on a loaded machine. The JSON is what CANDLE writes (see CandleFixture).
int make(const fs::path& dir, int runs, int epochs, std::size_t modelBytes)
{
    const std::string model = CandleFixture::modelContent(1, modelBytes);
    const std::string crc = std::to_string(CandleFixture::crc32Of(model));
    for (int r = 0; r < runs; ++r) {
        char name[64];
        std::snprintf(name, sizeof name, "Output/EXP%03d/RUN%03d", r / 5, r % 5);
        const fs::path out = dir / name;
        const std::string root = (out / "ckpts").string();
        fs::create_directories(root + "/epochs");
        double best = 1.0;
        for (int e = 1; e <= epochs; ++e) {
            if (e % 3 != 0)
                best *= 0.99;
            char num[16];
            std::snprintf(num, sizeof num, "%03d", e);
            const std::string epochDir = root + "/epochs/" + num;
            ::mkdir(epochDir.c_str(), 0755);
            writeFile(epochDir + "/model.h5", model);
            char bestText[32];
            *std::to_chars(bestText, bestText + sizeof bestText - 1, best).ptr = '\0';
            // Seconds since the previous save as Python writes a time.time()
            // difference: a different value of 16 or 17 digits each epoch.
            char elapsedText[32];
            const double elapsed = 52.0 + std::fmod(e * 0.7548776662466927, 1.0) * 9.0;
            *std::to_chars(elapsedText, elapsedText + sizeof elapsedText - 1, elapsed).ptr = '\0';
            char info[512];
            std::snprintf(info, sizeof info,
                          "{\"epoch\": %d, \"save_best_metric\": \"val_loss\", "
                          "\"best_metric_last\": %s, \"model_file\": \"model.h5\", "
                          "\"checksum\": \"%s\", \"timestamp\": \"2026-11-22 13:%02d:%02d\", "
                          "\"time_elapsed\": %s, \"metadata\": \"job 4242\"}",
                          e, bestText, crc.c_str(), (e / 60) % 60, e % 60,
                          e == 1 ? "\"__FIRST__\"" : elapsedText);
            writeFile(epochDir + "/ckpt-info.json", info);
        }
        CandleFixture f(root);
        f.linkAbsolute("last", epochs);
        // best at the last epoch that improved (every epoch but each third one does).
        f.linkAbsolute("best", epochs % 3 != 0 ? epochs : epochs - 1);
        writeFile(root + "/ckpt.log", "log\n");
        writeFile((out / "training.log").string(), "epoch,loss\n");
    }
    std::printf("made %d runs x %d epochs under %s\n", runs, epochs, dir.c_str());
    return 0;
}

// The baseline: the system calls any scanner of this tree has to make, with no
// parsing, on as many threads as the scanner uses. The walk (one readdir per
// directory) runs on the calling thread like the scanner's discovery; each
// run's epochs folder is then handled by a worker: readdir, and per epoch
// openat + fstat + read of ckpt-info.json and fstatat of model.h5 (the size,
// mtime and inode the scanner records), plus readlink of `last` and `best`.
// The result lines (one per epoch) are what a caller prints.
//
// With a line size (`once DIR BYTES`), each line is the epoch's path, the model's
// size, mtime and inode and the ckpt-info.json text it read, padded to that many
// bytes, and each thread writes its lines to stdout whenever 1 MiB has gathered (a
// buffer reused, as `ckpt scan` reuses its own): the same system calls writing as
// many bytes as `ckpt scan --json` prints, with no parsing and three integers
// formatted per epoch. An informative floor only: the goal is measured against the
// plain lines.
struct Baseline
{
    std::vector<std::string> epochDirs; // every "epochs" folder found
    std::size_t files = 0;
    std::string out;           // one line per epoch
    std::size_t lineBytes = 0; // 0: short lines, kept in `out`; else written as they fill

    void walk(const std::string& dir)
    {
        DIR* d = ::opendir(dir.c_str());
        if (!d)
            return;
        while (const dirent* e = ::readdir(d)) {
            const char* n = e->d_name;
            if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
                continue;
            if (e->d_type != DT_DIR)
                continue;
            if (std::strcmp(n, "epochs") == 0)
                epochDirs.push_back(dir + "/" + n);
            else
                walk(dir + "/" + n);
        }
        ::closedir(d);
    }

    static void flush(std::string& out)
    {
        static std::mutex stdoutMutex;
        std::lock_guard lock(stdoutMutex);
        std::fwrite(out.data(), 1, out.size(), stdout);
        out.clear();
    }

    static std::size_t epochs(const std::string& dir, std::string& out, std::size_t lineBytes)
    {
        char link[4096];
        const std::string root = dir.substr(0, dir.size() - 7);
        for (const char* name : {"/last", "/best"})
            (void)::readlink((root + name).c_str(), link, sizeof link);
        DIR* d = ::opendir(dir.c_str());
        if (!d)
            return 0;
        std::size_t files = 0;
        std::string buf;
        while (const dirent* e = ::readdir(d)) {
            const char* n = e->d_name;
            if (n[0] == '.' || e->d_type != DT_DIR)
                continue;
            const std::string info = std::string(n) + "/ckpt-info.json";
            const int fd = ::openat(::dirfd(d), info.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
            if (fd < 0)
                continue;
            struct stat st
            {};
            ::fstat(fd, &st);
            char chunk[4096];
            buf.clear();
            for (ssize_t k; (k = ::read(fd, chunk, sizeof chunk)) > 0;)
                buf.append(chunk, static_cast<std::size_t>(k));
            ::close(fd);
            struct stat model
            {};
            ::fstatat(::dirfd(d), (std::string(n) + "/model.h5").c_str(), &model, 0);
            const std::size_t lineStart = out.size();
            out += dir;
            out += '/';
            out += n;
            out += ' ';
            out += std::to_string(buf.size() + static_cast<std::size_t>(model.st_size));
            if (lineBytes > 0) {
                out += ' ';
                out += std::to_string(model.st_mtim.tv_sec);
                out += ' ';
                out += std::to_string(model.st_ino);
                out += ' ';
                out += buf;
                const std::size_t written = out.size() - lineStart;
                if (written + 1 < lineBytes)
                    out.append(lineBytes - written - 1, ' ');
            }
            out += '\n';
            if (lineBytes > 0 && out.size() >= (1u << 20))
                flush(out);
            ++files;
        }
        ::closedir(d);
        return files;
    }

    void run(const std::string& dir, int threads)
    {
        epochDirs.clear();
        out.clear();
        walk(dir);
        std::vector<std::string> outs(static_cast<std::size_t>(threads));
        std::vector<std::size_t> counts(static_cast<std::size_t>(threads));
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                std::string& mine = outs[static_cast<std::size_t>(t)];
                if (lineBytes > 0)
                    mine.reserve((1u << 20) + 2 * lineBytes);
                for (std::size_t i = static_cast<std::size_t>(t); i < epochDirs.size();
                     i += static_cast<std::size_t>(threads))
                    counts[static_cast<std::size_t>(t)] += epochs(epochDirs[i], mine, lineBytes);
                if (lineBytes > 0)
                    flush(mine);
            });
        for (std::thread& th : pool)
            th.join();
        files = 0;
        for (int t = 0; t < threads; ++t) {
            files += counts[static_cast<std::size_t>(t)];
            out += outs[static_cast<std::size_t>(t)];
        }
    }
};

int threadCount()
{
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

struct Sample
{
    double wall = 0.0;
    double cpu = 0.0; // user + system of every thread of this process
};

double cpuSeconds()
{
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    auto sec = [](const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) * 1e-6; };
    return sec(ru.ru_utime) + sec(ru.ru_stime);
}

template <typename F> Sample measure(F&& work)
{
    const double cpu0 = cpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    work();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return Sample{wall, cpuSeconds() - cpu0};
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int time(const fs::path& dir, int reps)
{
    Baseline bare;
    std::size_t files = 0;
    std::size_t epochs = 0;
    auto baseline = [&] {
        bare.run(dir.string(), threadCount());
        files = bare.files;
    };
    auto ours = [&] {
        auto r = ckpt::Scanner::scan(dir);
        epochs = 0;
        if (r)
            for (const auto& run : r->runs)
                epochs += run.epochs.size();
    };
    // Warm the page cache and the dentry cache for both.
    baseline();
    ours();
    // Interleaved, so that load from other processes hits both alike.
    std::vector<double> aWall, aCpu, cWall, cCpu;
    for (int i = 0; i < reps; ++i) {
        const Sample a = measure(baseline);
        const Sample c = measure(ours);
        aWall.push_back(a.wall);
        aCpu.push_back(a.cpu);
        cWall.push_back(c.wall);
        cCpu.push_back(c.cpu);
    }
    std::printf("files %zu\nepochs %zu\nbaseline_s %.6f\nbaseline_cpu_s %.6f\nours_s %.6f\n"
                "ours_cpu_s %.6f\n",
                files, epochs, median(aWall), median(aCpu), median(cWall), median(cCpu));
    return files == epochs ? 0 : 1;
}

} // namespace

// `bench_scan rss CMD [ARGS...]`: runs CMD, stdout to /dev/null, and prints its
// peak resident memory in KiB. Measured from this small process rather than
// from Python: Linux keeps a process's peak RSS across exec, so a child forked
// from a 20 MB interpreter could never show less than 20 MB.
int peakRss(char** command)
{
    const pid_t child = ::fork();
    if (child == 0) {
        const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null < 0 || ::dup2(null, STDOUT_FILENO) < 0)
            ::_exit(127);
        ::execv(command[0], command);
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    if (child < 0 || ::wait4(child, &status, 0, &usage) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) == 127)
        return 1;
    std::printf("%ld\n", usage.ru_maxrss);
    return 0;
}

int main(int argc, char** argv)
{
    if (argc < 3)
        return usage();
    const std::string mode = argv[1];
    if (mode == "rss")
        return peakRss(argv + 2);
    const fs::path dir = fs::absolute(argv[2]);
    if (mode == "make")
        return make(dir, argc > 3 ? std::atoi(argv[3]) : 20, argc > 4 ? std::atoi(argv[4]) : 500,
                    argc > 5 ? static_cast<std::size_t>(std::atoll(argv[5])) : 256);
    if (mode == "time")
        return time(dir, argc > 3 ? std::atoi(argv[3]) : 7);
    if (mode == "once") {
        // One baseline pass as a whole process, its lines written in one go: the
        // counterpart of `ckpt scan DIR --json > /dev/null`.
        Baseline bare;
        bare.lineBytes = argc > 3 ? static_cast<std::size_t>(std::atoll(argv[3])) : 0;
        bare.run(dir.string(), threadCount());
        std::fwrite(bare.out.data(), 1, bare.out.size(), stdout);
        return bare.files > 0 ? 0 : 1;
    }
    return usage();
}
