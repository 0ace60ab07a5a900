#include "H5Writer.h"
#include "ModelFixtures.h"
#include "hdf5/H5File.h"
#include "hdf5/H5Inspector.h"
#include "hdf5/H5Lock.h"
#include "hdf5/TensorDiff.h"
#include "hdf5/TensorStats.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ckpt;
using ckpt::test::H5Writer;
using ckpt::test::ModelFixtures;

// Bad input: every failure is a Result naming the file (and the object), and
// HDF5 never prints its error stack, from any thread.
class tst_H5File : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void badFile_data();
    void badFile();
    void corruptedChunkNamesTheDataset();
    void silentInEveryThread();
    void autoPrintingIsOffInNewThreads();
    void openDoesNotLockTheFile();

private:
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }
    // Captures what is written to fd 2 while the test runs.
    void startCapture();
    std::string stopCapture();

    QTemporaryDir m_dir;
    int m_savedStderr = -1;
    std::string m_capturePath;
};

void tst_H5File::init()
{
    startCapture();
}

void tst_H5File::cleanup()
{
    if (m_savedStderr >= 0)
        stopCapture();
}

void tst_H5File::startCapture()
{
    m_capturePath = path("stderr.txt");
    std::fflush(stderr);
    m_savedStderr = dup(2);
    const int fd = ::open(m_capturePath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    ::close(fd);
}

std::string tst_H5File::stopCapture()
{
    std::fflush(stderr);
    dup2(m_savedStderr, 2);
    ::close(m_savedStderr);
    m_savedStderr = -1;
    return ModelFixtures::readBytes(m_capturePath);
}

void tst_H5File::badFile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("text named .h5") << "text"
                                    << "not an HDF5 file";
    QTest::newRow("empty") << "empty"
                           << "not an HDF5 file";
    QTest::newRow("truncated") << "truncated"
                               << "truncated";
    QTest::newRow("missing") << "missing"
                             << "no such file";
    QTest::newRow("directory") << "dir"
                               << "is a directory";
}

void tst_H5File::badFile()
{
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    const std::string file = path("model.h5");
    std::filesystem::remove_all(file);
    if (kind == "text") {
        ModelFixtures::writeBytes(file, "epoch,loss\n1,0.5\n");
    } else if (kind == "empty") {
        ModelFixtures::writeBytes(file, "");
    } else if (kind == "truncated") {
        {
            H5Writer w(file);
            w.floats("/big", {65536}, ModelFixtures::values(65536, 3));
        }
        const std::string bytes = ModelFixtures::readBytes(file);
        ModelFixtures::writeBytes(file, bytes.substr(0, bytes.size() / 2));
    } else if (kind == "dir") {
        std::filesystem::create_directory(file);
    }

    const auto check = [&](const Error& e) {
        QVERIFY2(e.message.starts_with(file + ": "), e.message.c_str());
        QVERIFY2(e.message.find(expected.toStdString()) != std::string::npos, e.message.c_str());
    };
    const auto opened = H5File::open(file);
    QVERIFY(!opened.ok());
    check(opened.error());
    const auto inspected = H5Inspector::inspect(file);
    QVERIFY(!inspected.ok());
    check(inspected.error());
    const auto stats = TensorStats::ofFile(file);
    QVERIFY(!stats.ok());
    check(stats.error());
    const auto diff = TensorDiff::diff(path("missing-a.h5"), file);
    QVERIFY(!diff.ok());
    QVERIFY(diff.error().message.find("missing-a.h5") != std::string::npos);
    QCOMPARE(stopCapture(), std::string());
}

void tst_H5File::corruptedChunkNamesTheDataset()
{
    const std::string file = path("corrupt.h5");
    haddr_t chunkAddr = 0;
    hsize_t chunkSize = 0;
    {
        H5Writer w(file);
        w.floats("/model_weights/dense/dense/bias:0", {4}, {1, 2, 3, 4});
        const std::vector<float> data = ModelFixtures::values(4096, 5);
        w.dataset("/model_weights/dense/dense/kernel:0", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {64, 64},
                  data.data(), {16, 64}, 6);
        H5Lock lock;
        hid_t ds = H5Dopen2(w.id(), "/model_weights/dense/dense/kernel:0", H5P_DEFAULT);
        hsize_t offset[2];
        unsigned mask = 0;
        hid_t space = H5Dget_space(ds);
        H5Dget_chunk_info(ds, space, 1, offset, &mask, &chunkAddr, &chunkSize);
        H5Sclose(space);
        H5Dclose(ds);
    }
    QVERIFY(chunkAddr > 0 && chunkSize > 16);
    std::string bytes = ModelFixtures::readBytes(file);
    for (hsize_t i = 0; i < chunkSize; ++i)
        bytes[chunkAddr + i] = static_cast<char>(0xA5 ^ i);
    ModelFixtures::writeBytes(file, bytes);

    // The tree still reads: only values are broken.
    QVERIFY(H5Inspector::inspect(file).ok());
    // That tensor gets the error, the other its statistics.
    const auto stats = TensorStats::ofFile(file);
    QVERIFY2(stats.ok(), stats ? "" : stats.error().message.c_str());
    QCOMPARE(stats->size(), std::size_t(2));
    for (const TensorStats::Entry& e : *stats) {
        if (e.path == "/model_weights/dense/dense/bias:0") {
            QCOMPARE(e.error, std::string());
            QCOMPARE(e.stats.max, 4.0);
            continue;
        }
        QVERIFY2(e.error.starts_with(file +
                                     ": dataset /model_weights/dense/dense/kernel:0: read failed"),
                 e.error.c_str());
    }
    const auto diff = TensorDiff::diff(file, file);
    QVERIFY2(diff.ok(), diff ? "" : diff.error().message.c_str());
    for (const TensorDiffEntry& e : diff->tensors) {
        if (e.key.ends_with("kernel:0")) {
            QCOMPARE(e.status, TensorDiffEntry::Status::Unreadable);
            QVERIFY2(e.error.find("kernel:0: read failed") != std::string::npos, e.error.c_str());
        } else {
            QCOMPARE(e.status, TensorDiffEntry::Status::Same);
        }
    }
    QCOMPARE(stopCapture(), std::string());
}

void tst_H5File::silentInEveryThread()
{
    const std::string file = path("text.h5");
    ModelFixtures::writeBytes(file, "not hdf5 at all, but long enough to be read by HDF5.\n");
    std::thread worker([&] {
        for (int i = 0; i < 3; ++i)
            (void)H5File::open(file);
        (void)TensorStats::ofFile(file);
    });
    worker.join();
    QCOMPARE(stopCapture(), std::string());
}

void tst_H5File::autoPrintingIsOffInNewThreads()
{
    stopCapture();
    // Checked directly rather than through stderr: a fresh thread's error stack
    // prints by default in a thread-safe libhdf5 until the H5Lock turns it off.
    bool off = false;
    std::thread worker([&] {
        H5Lock lock;
        H5E_auto2_t func = nullptr;
        void* data = nullptr;
        H5Eget_auto2(H5E_DEFAULT, &func, &data);
        off = func == nullptr;
    });
    worker.join();
    QVERIFY(off);
}

void tst_H5File::openDoesNotLockTheFile()
{
    stopCapture();
    const std::string file = path("writing.h5");
    // A trainer in another process holds the file open for writing, with HDF5's
    // default (exclusive) file lock.
    int ready[2];
    int release[2];
    QVERIFY(pipe(ready) == 0 && pipe(release) == 0);
    const pid_t child = fork();
    if (child == 0) {
        {
            H5Writer writer(file);
            writer.floats("/x", {3}, {1, 2, 3});
            H5Fflush(writer.id(), H5F_SCOPE_GLOBAL);
            char c = 'r';
            (void)!write(ready[1], &c, 1);
            (void)!read(release[0], &c, 1);
        }
        _exit(0);
    }
    char c = 0;
    QVERIFY(read(ready[0], &c, 1) == 1);
    bool lockedOut = false;
    {
        // The contrast: HDF5's default read-only open is refused while the trainer writes.
        H5Lock lock;
        const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        lockedOut = f < 0;
        if (f >= 0)
            H5Fclose(f);
    }
    const auto opened = H5File::open(file);
    c = 'q';
    (void)!write(release[1], &c, 1);
    int status = 0;
    waitpid(child, &status, 0);
    QVERIFY(lockedOut);
    QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
}

QTEST_GUILESS_MAIN(tst_H5File)
#include "tst_H5File.moc"
