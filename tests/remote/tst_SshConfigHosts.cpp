#include "CandleFixture.h"
#include "remote/SshConfigHosts.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

class TestSshConfigHosts : public QObject
{
    Q_OBJECT

private slots:
    void readsConcreteHostsAndIncludes()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const fs::path dir = tmp.path().toStdString();
        CandleFixture::writeText(dir / "config", "# a comment\n"
                                                 "Host gpu1 gpu2\n"
                                                 "  HostName 10.0.0.1\n"
                                                 "Host *.lab !bad * login?\n"
                                                 "Include conf.d/*.conf\n"
                                                 "host=\"quoted name\"\n"
                                                 "Match host x\n"
                                                 "HOST gpu1\n");
        fs::create_directories(dir / "conf.d");
        CandleFixture::writeText(dir / "conf.d" / "a.conf", "Host cluster-a\n");
        CandleFixture::writeText(dir / "conf.d" / "b.conf", "Host cluster-b\nInclude loop\n");
        CandleFixture::writeText(dir / "loop", "Include conf.d/b.conf\nHost deep\n");
        CandleFixture::writeText(dir / "conf.d" / "ignored.txt", "Host nope\n");
        const auto hosts = SshConfigHosts::read(dir / "config", dir);
        const std::vector<std::string> expected{"gpu1",      "gpu2", "cluster-a",
                                                "cluster-b", "deep", "quoted name"};
        QCOMPARE(hosts, expected);
    }

    void aMissingConfigHasNoHosts()
    {
        QVERIFY(SshConfigHosts::read("/nonexistent/config", "/nonexistent").empty());
    }
};

QTEST_GUILESS_MAIN(TestSshConfigHosts)
#include "tst_SshConfigHosts.moc"
