#include "ModelFixtures.h"
#include "hdf5/H5File.h"
#include "hdf5/H5Inspector.h"
#include "hdf5/TensorDiff.h"
#include "modelfile/ModelOverview.h"
#include "modelfile/ModelSniffer.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ckpt;
using ckpt::test::ModelFixtures;
namespace fs = std::filesystem;

namespace {

// Puts something that is not a model file at `path`.
using Plant = std::function<void(const fs::path& path)>;

void plantSocket(const fs::path& path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un addr = {};
    addr.sun_family = AF_UNIX;
    const std::string p = path.string();
    QVERIFY(p.size() < sizeof addr.sun_path);
    std::copy(p.begin(), p.end(), addr.sun_path);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ::close(fd);
}

} // namespace

// Every reader of model files meets a FIFO, a device or a socket with an error
// naming the file, at once: an HDF5 or zip open of a FIFO would wait for a
// writer forever, a read of /dev/zero would never end.
class tst_HostileModels : public QObject
{
    Q_OBJECT

private slots:
    void specialFiles_data();
    void specialFiles();
};

void tst_HostileModels::specialFiles_data()
{
    QTest::addColumn<Plant>("plant");
    QTest::addColumn<QString>("what");
    QTest::newRow("FIFO") << Plant([](const fs::path& p) {
        QCOMPARE(::mkfifo(p.c_str(), 0644), 0);
    }) << "a FIFO (named pipe)";
    QTest::newRow("symlink to /dev/zero")
        << Plant([](const fs::path& p) { fs::create_symlink("/dev/zero", p); })
        << "a character device";
    QTest::newRow("socket") << Plant(plantSocket) << "a socket";
}

void tst_HostileModels::specialFiles()
{
    QFETCH(Plant, plant);
    QFETCH(QString, what);
    QTemporaryDir tmp;
    const fs::path dir(tmp.path().toStdString());
    const fs::path bad = dir / "model.h5";
    const fs::path good = dir / "good.h5";
    plant(bad);
    ModelFixtures::keras2Model(good);
    const std::string expected =
        bad.string() + " is " + what.toStdString() + ", not a regular file";

    QElapsedTimer timer;
    timer.start();
    auto sniff = ModelSniffer::sniff(bad.string());
    QVERIFY(!sniff);
    QCOMPARE(sniff.error().message, expected);
    auto open = H5File::open(bad.string());
    QVERIFY(!open);
    QCOMPARE(open.error().message, expected);
    auto inspect = H5Inspector::inspect(bad.string());
    QVERIFY(!inspect);
    QCOMPARE(inspect.error().message, expected);
    auto overview = ModelOverview::load(bad.string(), tmp.path().toStdString());
    QVERIFY(!overview);
    QCOMPARE(overview.error().message, expected);
    auto diff = TensorDiff::diff(good.string(), bad.string());
    QVERIFY(!diff);
    QCOMPARE(diff.error().message, expected);
    QVERIFY2(timer.elapsed() < 5000, "no reader may block or stream forever");
    // The healthy file beside it is still fine.
    QVERIFY(H5Inspector::inspect(good.string()));
}

QTEST_GUILESS_MAIN(tst_HostileModels)
#include "tst_HostileModels.moc"
