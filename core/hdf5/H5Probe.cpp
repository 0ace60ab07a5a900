#include "hdf5/H5Probe.h"

#include "hdf5/H5File.h"
#include "hdf5/H5Inspector.h"
#include "hdf5/H5Lock.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <hdf5.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace ckpt {

namespace {

bool g_inChild = false;

// isolate()'s record of the HDF5 files its copy opened, in memory shared with
// the parent: NUL-terminated paths one after the other, as many as fit.
struct OpenedFiles
{
    static constexpr std::size_t kBytes = 64 * 1024;
    char* page = nullptr;
    std::size_t used = 0;
    std::mutex mutex;

    void add(const std::string& path)
    {
        std::lock_guard lock(mutex);
        for (std::size_t at = 0; at < used; at += std::strlen(page + at) + 1)
            if (path == page + at)
                return;
        if (used + path.size() + 1 > kBytes)
            return;
        std::memcpy(page + used, path.c_str(), path.size() + 1);
        used += path.size() + 1;
    }
};
OpenedFiles g_opened;

// One version of one file: a rewritten or replaced file is checked again.
using FileVersion =
    std::tuple<dev_t, ino_t, off_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

struct Verdicts
{
    std::mutex mutex;
    std::map<std::pair<FileVersion, H5Probe::Depth>, Status> byVersion;
};

Verdicts& verdicts()
{
    static Verdicts v;
    return v;
}

// The first element of a chunked dataset, read through HDF5 in its own type:
// decodes the first chunk through the dataset's filters. Contiguous and compact
// data is never read through libhdf5's data path here (DatasetReader preads
// contiguous data), so it is left out, as are variable-length types (their
// reading allocates per element; the listing already read their type).
void readFirstElement(hid_t dataset)
{
    H5Handle create(H5Dget_create_plist(dataset));
    if (!create || H5Pget_layout(create.get()) != H5D_CHUNKED)
        return;
    // Values the reader refuses are not read here either.
    if (!H5File::unreadReason(dataset).empty())
        return;
    H5Handle space(H5Dget_space(dataset));
    H5Handle type(H5Dget_type(dataset));
    if (!space || !type || H5Tis_variable_str(type.get()) > 0 ||
        H5Tdetect_class(type.get(), H5T_VLEN) > 0)
        return;
    const std::size_t size = H5Tget_size(type.get());
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (size == 0 || size > (1u << 20) || rank < 0 ||
        H5Sget_simple_extent_npoints(space.get()) <= 0)
        return;
    std::vector<unsigned char> element(size);
    if (rank == 0) {
        H5Dread(dataset, type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, element.data());
        return;
    }
    const std::vector<hsize_t> start(static_cast<std::size_t>(rank), 0);
    const std::vector<hsize_t> count(static_cast<std::size_t>(rank), 1);
    if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                            nullptr) < 0)
        return;
    const hsize_t one = 1;
    H5Handle memory(H5Screate_simple(1, &one, nullptr));
    if (memory)
        H5Dread(dataset, type.get(), memory.get(), space.get(), H5P_DEFAULT, element.data());
}

// What the checking process reads: what H5Inspector, the tensor listings and
// the readers read, every error passed over so that the walk goes on.
void walk(const std::string& path, H5Probe::Depth depth)
{
    if (depth == H5Probe::Depth::Everything)
        (void)H5Inspector::inspect(path);
    auto file = H5File::open(path);
    if (!file)
        return;
    auto links = file->datasetLinks();
    if (!links)
        return;
    for (const H5File::DatasetLink& link : links.value()) {
        auto dataset = file->openDataset(link);
        if (!dataset)
            continue;
        (void)file->datasetInfo(dataset->get(), link.path, depth == H5Probe::Depth::Tensors);
        H5Lock lock;
        readFirstElement(dataset->get());
    }
}

// In a forked copy: a crash ends it with its signal, whatever handler this
// process had installed, so that the parent can tell a crash.
void dieOfCrashes()
{
    for (const int sig : {SIGSEGV, SIGBUS, SIGABRT})
        std::signal(sig, SIG_DFL);
}

[[noreturn]] void childMain(const std::string& path, H5Probe::Depth depth, int done)
{
    g_inChild = true;
    // The forking thread held the lock; in this copy that thread is gone, and
    // the lock with it: this process is single-threaded, a fresh lock is right.
    H5Lock::reinitialiseAfterFork();
    dieOfCrashes();
    if (const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0)
        ::dup2(null, STDOUT_FILENO);
    walk(path, depth);
    const char ok = 'k';
    (void)!::write(done, &ok, 1);
    ::_exit(0);
}

std::string signalText(int sig)
{
    const char* name = ::sigabbrev_np(sig);
    const char* what = ::sigdescr_np(sig);
    std::string text = "signal " + std::to_string(sig);
    if (name)
        text += std::string(", SIG") + name;
    if (what)
        text += std::string(": ") + what;
    return text;
}

// Runs the walk in a copy of this process; the copy's verdict.
Status probe(const std::string& path, H5Probe::Depth depth, bool& decided)
{
    decided = false;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return {};
    pid_t pid = -1;
    {
        // No thread of ours is inside HDF5 while the copy is made.
        H5Lock lock;
        pid = ::fork();
        if (pid == 0) {
            ::close(fds[0]);
            childMain(path, depth, fds[1]);
        }
    }
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return {};
    }
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(H5Probe::kTimeoutMs);
    char ok = 0;
    ssize_t got = -1;
    bool timedOut = false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready > 0) {
            do
                got = ::read(fds[0], &ok, 1);
            while (got < 0 && errno == EINTR);
        }
        break;
    }
    ::close(fds[0]);
    if (timedOut)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    decided = true;
    const std::string refused =
        "so it was not opened: the file is damaged or not an HDF5 model that this HDF5 "
        "library can read";
    if (got == 1 && ok == 'k')
        return {};
    if (timedOut)
        return Error::at(path, "the HDF5 library did not finish reading this file's structure in " +
                                   std::to_string(H5Probe::kTimeoutMs / 1000) +
                                   " s in a separate checking process, " + refused);
    if (WIFSIGNALED(status))
        return Error::at(path, "reading this file crashed the HDF5 library (" +
                                   signalText(WTERMSIG(status)) +
                                   ") in a separate checking process, " + refused);
    // A sanitizer's report ends the checking process with an exit status.
    return Error::at(path, "reading this file crashed the HDF5 library (exit status " +
                               std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                               ") in a separate checking process, " + refused);
}

} // namespace

bool H5Probe::inChild()
{
    return g_inChild;
}

void H5Probe::forget()
{
    std::lock_guard lock(verdicts().mutex);
    verdicts().byVersion.clear();
}

Result<int> H5Probe::isolate(const std::function<int()>& work)
{
    void* page = ::mmap(nullptr, OpenedFiles::kBytes, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return work();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::munmap(page, OpenedFiles::kBytes);
        return work();
    }
    if (pid == 0) {
        // Ends with this process's parent (killed, or ended by a terminal).
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(2);
        g_inChild = true;
        g_opened.page = static_cast<char*>(page);
        dieOfCrashes();
        const int code = work();
        std::fflush(nullptr);
        ::_exit(code);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::vector<std::string> opened;
    const char* files = static_cast<const char*>(page);
    for (std::size_t at = 0; at < OpenedFiles::kBytes && files[at] != '\0';
         at += std::strlen(files + at) + 1)
        opened.emplace_back(files + at);
    ::munmap(page, OpenedFiles::kBytes);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    const std::string how = signalText(WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    const std::string damaged =
        ": the file is damaged or not an HDF5 model that this HDF5 library can read";
    if (opened.empty())
        return Error{"the command crashed (" + how + ") before opening any HDF5 file", {}};
    if (opened.size() == 1)
        return Error::at(opened.front(), "reading this file crashed the HDF5 library (" + how +
                                             "), so it could not be read" + damaged);
    std::string list;
    for (const std::string& f : opened)
        list += (list.empty() ? "" : ", ") + f;
    return Error{"reading one of these files crashed the HDF5 library (" + how + "): " + list +
                     "; one of them is damaged or not an HDF5 model that this HDF5 library can "
                     "read",
                 opened.back()};
}

Status H5Probe::check(const std::string& path, Depth depth)
{
    if (g_inChild) {
        if (g_opened.page)
            g_opened.add(path);
        return {};
    }
    struct stat st = {};
    if (::stat(path.c_str(), &st) != 0)
        return {}; // the open that follows names the problem
    const FileVersion version{st.st_dev,         st.st_ino,          st.st_size,
                              st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_ctim.tv_sec,
                              st.st_ctim.tv_nsec};
    {
        std::lock_guard lock(verdicts().mutex);
        const auto& known = verdicts().byVersion;
        if (auto it = known.find({version, depth}); it != known.end())
            return it->second;
        if (auto it = known.find({version, Depth::Everything}); it != known.end() && it->second)
            return it->second;
    }
    bool decided = false;
    Status verdict = probe(path, depth, decided);
    if (decided) {
        std::lock_guard lock(verdicts().mutex);
        auto& known = verdicts().byVersion;
        if (known.size() >= 4096)
            known.clear();
        known.emplace(std::pair{version, depth}, verdict);
    }
    return verdict;
}

} // namespace ckpt
