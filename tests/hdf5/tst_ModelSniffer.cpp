#include "H5Writer.h"
#include "ModelFixtures.h"
#include "modelfile/ModelSniffer.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace ckpt;
using ckpt::test::ModelFixtures;

class tst_ModelSniffer : public QObject
{
    Q_OBJECT

private slots:
    void sniff_data();
    void sniff();
    void zipEntriesAndSizes();
    void missingFileIsAnError();

private:
    QTemporaryDir m_dir;
};

void tst_ModelSniffer::sniff_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("zipKind");
    QTest::addColumn<qulonglong>("offset");
    QTest::addColumn<QString>("hint");

    QTest::newRow("hdf5") << "hdf5"
                          << "hdf5"
                          << "none" << 0ull << "";
    QTest::newRow("hdf5 with 512 user block") << "ub512"
                                              << "hdf5"
                                              << "none" << 512ull << "";
    QTest::newRow("hdf5 with 2048 user block") << "ub2048"
                                               << "hdf5"
                                               << "none" << 2048ull << "";
    QTest::newRow("torch zip") << "torch"
                               << "zip"
                               << "torch" << 0ull << "";
    QTest::newRow("keras 3 zip") << "keras3"
                                 << "zip"
                                 << "keras3" << 0ull << "";
    QTest::newRow("other zip") << "otherzip"
                               << "zip"
                               << "other" << 0ull << "";
    QTest::newRow("text named .h5") << "text"
                                    << "unknown"
                                    << "none" << 0ull << "text";
    QTest::newRow("empty") << "empty"
                           << "unknown"
                           << "none" << 0ull << "empty file";
    QTest::newRow("binary") << "binary"
                            << "unknown"
                            << "none" << 0ull << "unrecognised binary";
}

void tst_ModelSniffer::sniff()
{
    QFETCH(QString, kind);
    QFETCH(QString, format);
    QFETCH(QString, zipKind);
    QFETCH(qulonglong, offset);
    QFETCH(QString, hint);

    // Every file is named .h5: the name must not matter.
    const std::filesystem::path file = m_dir.filePath(kind + ".h5").toStdString();
    if (kind == "hdf5") {
        ModelFixtures::keras2Weights(file);
    } else if (kind.startsWith("ub")) {
        ckpt::test::H5Writer w(file, kind.mid(2).toULongLong());
        w.floats("/x", {2}, {1.0f, 2.0f});
    } else if (kind == "torch") {
        ModelFixtures::zip(file, {{"archive/data.pkl", "pickle"},
                                  {"archive/data/0", std::string(64, 'x')},
                                  {"archive/version", "3\n"}});
    } else if (kind == "keras3") {
        ModelFixtures::zip(
            file, {{"metadata.json", "{}"}, {"config.json", "{}"}, {"model.weights.h5", "h5"}});
    } else if (kind == "otherzip") {
        ModelFixtures::zip(file, {{"readme.txt", "hello"}});
    } else if (kind == "text") {
        ModelFixtures::writeBytes(file, "this is not a model\n");
    } else if (kind == "empty") {
        ModelFixtures::writeBytes(file, "");
    } else {
        ModelFixtures::writeBytes(file, std::string("\x01\x02\x00\xff garbage", 12));
    }

    const auto s = ModelSniffer::sniff(file.string());
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
    QCOMPARE(QString::fromStdString(ModelSniffer::formatName(s->format)), format);
    QCOMPARE(QString::fromStdString(ModelSniffer::zipKindName(s->zipKind)), zipKind);
    QCOMPARE(qulonglong(s->hdf5Offset), offset);
    QCOMPARE(QString::fromStdString(s->hint), hint);
    if (kind == "torch")
        QCOMPARE(s->torchRoot, std::string("archive"));
}

void tst_ModelSniffer::zipEntriesAndSizes()
{
    const std::filesystem::path file = m_dir.filePath("model.pt").toStdString();
    ModelFixtures::zip(file, {{"archive/data.pkl", std::string(100, 'p')},
                              {"archive/data/0", std::string(4000, '\0')},
                              {"archive/version", "3\n"}});
    const auto s = ModelSniffer::sniff(file.string());
    QVERIFY(s.ok());
    QCOMPARE(s->entries.size(), std::size_t(3));
    std::map<std::string, std::uint64_t> sizes;
    for (const ZipEntry& e : s->entries)
        sizes[e.name] = e.size;
    QCOMPARE(sizes["archive/data.pkl"], std::uint64_t(100));
    QCOMPARE(sizes["archive/data/0"], std::uint64_t(4000));
    QCOMPARE(sizes["archive/version"], std::uint64_t(2));
}

void tst_ModelSniffer::missingFileIsAnError()
{
    const std::string file = m_dir.filePath("nope.h5").toStdString();
    const auto s = ModelSniffer::sniff(file);
    QVERIFY(!s.ok());
    QVERIFY(s.error().message.starts_with(file));
}

QTEST_GUILESS_MAIN(tst_ModelSniffer)
#include "tst_ModelSniffer.moc"
