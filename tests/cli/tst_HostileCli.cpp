#include "CandleFixture.h"
#include "CliRunner.h"
#include "H5Writer.h"
#include "ModelFixtures.h"
#include "SpecialFiles.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <memory>

using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

// The real `ckpt` against hostile files: each command must end well inside this.
constexpr int kTimeoutMs = 30000;

CliResult run(const QStringList& args)
{
    return runCli(args, kTimeoutMs);
}

// Every problem of the scan's JSON, as "path\tmessage" lines.
QStringList problemsOf(const nlohmann::json& scan)
{
    QStringList out;
    for (const auto& r : scan["runs"]) {
        for (const auto& p : r["problems"])
            out << QString::fromStdString(p["path"].get<std::string>() + "\t" +
                                          p["message"].get<std::string>());
        for (const auto& e : r["epochs"])
            for (const auto& p : e["problems"])
                out << QString::fromStdString(p["path"].get<std::string>() + "\t" +
                                              p["message"].get<std::string>());
    }
    return out;
}

} // namespace

class tst_HostileCli : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_base = fs::path(m_tmp->path().toStdString());
    }
    void cleanup() { m_tmp.reset(); }

    void scanReportsEveryHostileInfoFile()
    {
        CandleFixture f(m_base / "run");
        f.addEpoch(1, 0.9, 64, true);
        const auto info = [&](int e) { return f.epochDir(e) / "ckpt-info.json"; };
        for (int e = 2; e <= 6; ++e)
            fs::create_directories(f.epochDir(e));
        fs::create_symlink("/dev/zero", info(2)); // used to read until 8 GB were taken
        SpecialFiles::fifo(info(3));
        SpecialFiles::sparse(info(4), 1ull << 30);
        SpecialFiles::socket(info(5));
        f.writeInfo(6, "{\"epoch\": 6, \"model_file\": \"../../../../../etc/passwd\"}");
        f.linkAbsolute("last", 1);

        QElapsedTimer timer;
        timer.start();
        const CliResult r = run({"scan", "--json", m_tmp->path()});
        QVERIFY2(r.exitCode == 1, r.err.constData());
        QVERIFY(timer.elapsed() < kTimeoutMs);
        const QStringList problems = problemsOf(r.json());
        const auto has = [&](const fs::path& path, const QString& words) {
            const QString needle = QString::fromStdString(path.string()) + '\t';
            for (const QString& p : problems)
                if (p.startsWith(needle) && p.contains(words))
                    return true;
            return false;
        };
        QVERIFY2(has(info(2), "is a character device, not a regular file"),
                 qPrintable(problems.join('\n')));
        QVERIFY2(has(info(3), "is a FIFO (named pipe), not a regular file"),
                 qPrintable(problems.join('\n')));
        QVERIFY2(has(info(4), "is 1.0 GiB, over the 4.0 MiB"), qPrintable(problems.join('\n')));
        QVERIFY2(has(info(5), "is a socket, not a regular file"), qPrintable(problems.join('\n')));
        QVERIFY2(has(info(6), "model_file \"../../../../../etc/passwd\" climbs out"),
                 qPrintable(problems.join('\n')));
        QCOMPARE(problems.size(), 5);

        // The human form and verify finish too, and say the same.
        const CliResult human = run({"scan", m_tmp->path()});
        QCOMPARE(human.exitCode, 1);
        QVERIFY(human.out.contains("not a regular file"));
        const CliResult verify = run({"verify", "--json", m_tmp->path()});
        QVERIFY2(verify.exitCode == 1, verify.err.constData());
        QVERIFY2(verify.out.contains("is a FIFO (named pipe), not a regular file"),
                 verify.out.constData());
        QVERIFY(!verify.out.contains("root:"));
    }

    void verifyOfSpecialModelFilesEnds()
    {
        CandleFixture f(m_base / "run");
        f.addEpoch(1, 0.9, 64, true);
        f.addEpoch(2, 0.8, 64);
        f.addEpoch(3, 0.7, 64);
        fs::remove(f.epochDir(2) / "model.h5");
        SpecialFiles::fifo((f.epochDir(2) / "model.h5"));
        fs::remove(f.epochDir(3) / "model.h5");
        fs::create_symlink("/dev/zero", f.epochDir(3) / "model.h5");

        const CliResult r = run({"verify", "--json", m_tmp->path()});
        QVERIFY2(r.exitCode == 1, (r.out + r.err).constData());
        const auto j = r.json();
        QVERIFY2(r.out.contains("model.h5 is a FIFO (named pipe), not a regular file: not read"),
                 r.out.constData());
        QVERIFY2(r.out.contains("model.h5 is a character device, not a regular file: not read"),
                 r.out.constData());
    }

    void inspectAndDiffRefuseHostileModels()
    {
        CandleFixture f(m_base / "run");
        f.addEpoch(1, 0.9, 64, true);
        f.writeInfo(2, "{\"epoch\": 2, \"model_file\": \"/etc/passwd\"}");
        const QString epoch2 = QString::fromStdString(f.epochDir(2).string());
        const QString info2 = epoch2 + "/ckpt-info.json";

        CliResult r = run({"inspect", epoch2});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.contains(info2.toUtf8() + ": model_file \"/etc/passwd\" is an absolute path"),
            r.err.constData());
        r = run({"diff", QString::fromStdString(f.root().string()), "--epochs", "1", "2"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("epoch 2 has no model file"), r.err.constData());

        const fs::path fifo = m_base / "fifo.h5";
        SpecialFiles::fifo(fifo);
        r = run({"inspect", QString::fromStdString(fifo.string())});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("fifo.h5 is a FIFO (named pipe), not a regular file"),
                 r.err.constData());
        r = run({"inspect", "/dev/zero"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("/dev/zero is a character device, not a regular file"),
                 r.err.constData());
    }

    void modelThatCrashesLibhdf5IsRefused()
    {
        // A damaged model.h5 on which Debian's libhdf5 dies (tests/hdf5/crashers):
        // inspect runs in a forked copy of ckpt, which dies instead; ckpt says so
        // naming the file, exits 2 and prints nothing on stdout. Before, ckpt
        // itself died of SIGSEGV.
        CandleFixture f(m_base / "run");
        f.addEpoch(1, 0.9, 64, true);
        f.addEpoch(2, 0.8, 64, true);
        ModelFixtures::keras2Model(f.epochDir(1) / "model.h5");
        f.writeModel(2, ModelFixtures::readBytes(ModelFixtures::crasher("global-heap-read.h5")));
        const QString model2 = QString::fromStdString((f.epochDir(2) / "model.h5").string());
        for (const QStringList& args :
             {QStringList{"inspect", model2}, QStringList{"inspect", "--json", model2}}) {
            const CliResult r = run(args);
            const QByteArray what = args.join(' ').toUtf8() + ": " + r.err;
            QVERIFY2(r.exitCode == 2, what.constData());
            QVERIFY2(r.err.startsWith("ckpt inspect: " + model2.toUtf8() +
                                      ": reading this file crashed the HDF5 library (signal 11"),
                     what.constData());
            QVERIFY2(r.out.isEmpty(), r.out.constData());
        }
        // A diff reads no attributes, which is where this file kills libhdf5: it
        // meets HDF5's own error instead, naming the file.
        const CliResult d =
            run({"diff", QString::fromStdString(f.root().string()), "--epochs", "1", "2"});
        QVERIFY2(d.exitCode == 2, d.err.constData());
        QVERIFY2(d.err.startsWith("ckpt diff: " + model2.toUtf8() + ": "), d.err.constData());
        QVERIFY2(d.out.isEmpty(), d.out.constData());
        // Epoch 1 is read as ever.
        const CliResult ok = run({"inspect", QString::fromStdString(f.epochDir(1).string())});
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
    }

    void inspectOfADeepModelConfig()
    {
        const fs::path file = m_base / "deep.h5";
        const std::string deep = std::string(200000, '[') + std::string(200000, ']');
        {
            H5Writer w(file);
            w.attrVarString("/", "keras_version", "2.11.0");
            w.attrVarString("/", "model_config", deep);
            w.floats("/model_weights/dense/dense/kernel:0", {2, 2}, {1, 2, 3, 4});
            w.attrStrings("/model_weights", "layer_names", {"dense"});
        }
        for (const QStringList& args :
             {QStringList{"inspect", "--json", QString::fromStdString(file.string())},
              QStringList{"inspect", QString::fromStdString(file.string())}}) {
            const CliResult r = run(args);
            QVERIFY2(r.exitCode == 0, (args.join(' ').toUtf8() + ": " + r.err).constData());
        }
        const CliResult j = run({"inspect", "--json", QString::fromStdString(file.string())});
        QCOMPARE(j.json()["keras"]["model_config"].get<std::string>(), deep);
    }

    void historyOfSpecialLogsEnds()
    {
        CandleFixture f(m_base / "run");
        f.addEpoch(1, 0.9, 64, true);
        f.addEpoch(2, 0.8, 64);
        SpecialFiles::fifo((f.root() / "ckpt.log"));
        fs::create_symlink("/dev/zero", f.root() / "training.log");
        const CliResult r = run({"history", QString::fromStdString(f.root().string())});
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, (r.out + r.err).constData());
        const QByteArray all = r.out + r.err;
        QVERIFY2(all.contains("ckpt.log is a FIFO (named pipe), not a regular file"),
                 all.constData());
        QVERIFY2(all.contains("training.log is a character device, not a regular file"),
                 all.constData());
    }

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_base;
};

QTEST_GUILESS_MAIN(tst_HostileCli)
#include "tst_HostileCli.moc"
