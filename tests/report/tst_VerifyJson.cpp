#include "report/VerifyJson.h"

#include <QTest>

using namespace ckpt;
using json = nlohmann::ordered_json;

namespace {

VerifyReport sample()
{
    VerifyReport report;
    RunVerdict run;
    run.root = "/data/run/ckpts";
    EpochVerdict ok;
    ok.epoch = 1;
    ok.root = run.root;
    ok.path = run.root + "/epochs/001/model.h5";
    ok.status = VerifyStatus::Ok;
    ok.expected = ok.actual = "3421780262";
    ok.bytes = 9;
    ok.seconds = 0.25;
    EpochVerdict bad = ok;
    bad.epoch = 2;
    bad.status = VerifyStatus::Mismatch;
    bad.actual = "17";
    bad.message = "CRC differs";
    EpochVerdict none = ok;
    none.epoch = 3;
    none.status = VerifyStatus::NoChecksum;
    none.expected.clear();
    none.actual.clear();
    none.bytes = 0;
    run.epochs = {ok, bad, none};
    report.runs.push_back(run);
    report.totals.bytes = 18;
    report.totals.seconds = 0.5;
    report.totals.counts[static_cast<std::size_t>(VerifyStatus::Ok)] = 1;
    report.totals.counts[static_cast<std::size_t>(VerifyStatus::Mismatch)] = 1;
    report.totals.counts[static_cast<std::size_t>(VerifyStatus::NoChecksum)] = 1;
    return report;
}

} // namespace

class tst_VerifyJson : public QObject
{
    Q_OBJECT

private slots:
    void statusNames_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("text");
        QTest::newRow("ok") << int(VerifyStatus::Ok) << "ok";
        QTest::newRow("mismatch") << int(VerifyStatus::Mismatch) << "mismatch";
        QTest::newRow("disabled") << int(VerifyStatus::Disabled) << "disabled";
        QTest::newRow("missing") << int(VerifyStatus::Missing) << "missing";
        QTest::newRow("no_checksum") << int(VerifyStatus::NoChecksum) << "no_checksum";
        QTest::newRow("error") << int(VerifyStatus::Error) << "error";
        QTest::newRow("bad_info") << int(VerifyStatus::BadInfo) << "bad_info";
    }
    void statusNames()
    {
        QFETCH(int, status);
        QFETCH(QString, text);
        const auto s = static_cast<VerifyStatus>(status);
        QCOMPARE(QString::fromLatin1(toString(s).data()), text);
        QVERIFY(verifyStatusFromString(text.toStdString()) == s);
    }

    void shape()
    {
        const json doc = VerifyJson::toJson(sample());
        QCOMPARE(doc.at("runs").size(), std::size_t{1});
        const json& run = doc.at("runs")[0];
        QCOMPARE(run.at("root").get<std::string>(), std::string("/data/run/ckpts"));
        const json& e = run.at("epochs")[1];
        QCOMPARE(e.at("epoch").get<int>(), 2);
        QCOMPARE(e.at("status").get<std::string>(), std::string("mismatch"));
        QCOMPARE(e.at("expected").get<std::string>(), std::string("3421780262"));
        QCOMPARE(e.at("actual").get<std::string>(), std::string("17"));
        QCOMPARE(e.at("bytes").get<std::uint64_t>(), std::uint64_t{9});
        QCOMPARE(e.at("message").get<std::string>(), std::string("CRC differs"));
        QCOMPARE(run.at("epochs")[2].at("status").get<std::string>(), std::string("no_checksum"));
        const json& totals = doc.at("totals");
        QCOMPARE(totals.at("bytes").get<std::uint64_t>(), std::uint64_t{18});
        QCOMPARE(totals.at("seconds").get<double>(), 0.5);
        QCOMPARE(totals.at("epochs").get<int>(), 3);
        QCOMPARE(totals.at("ok").get<int>(), 1);
        QCOMPARE(totals.at("mismatch").get<int>(), 1);
        QCOMPARE(totals.at("no_checksum").get<int>(), 1);
        // Every status appears, zeros included.
        for (const char* key : {"disabled", "missing", "error", "bad_info"})
            QCOMPARE(totals.at(key).get<int>(), 0);
    }

    void roundTrip()
    {
        const VerifyReport original = sample();
        auto back = VerifyJson::fromText(VerifyJson::toText(original, 2), "report.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->runs.size(), std::size_t{1});
        QCOMPARE(back->runs[0].epochs.size(), std::size_t{3});
        for (std::size_t i = 0; i < 3; ++i) {
            const auto& a = original.runs[0].epochs[i];
            const auto& b = back->runs[0].epochs[i];
            QCOMPARE(b.epoch, a.epoch);
            QVERIFY(b.status == a.status);
            QCOMPARE(b.expected, a.expected);
            QCOMPARE(b.actual, a.actual);
            QCOMPARE(b.bytes, a.bytes);
            QCOMPARE(b.path, a.path);
            QCOMPARE(b.message, a.message);
            QCOMPARE(b.root, original.runs[0].root);
        }
        QVERIFY(back->totals.counts == original.totals.counts);
        QCOMPARE(back->totals.bytes, original.totals.bytes);
    }

    void nonUtf8PathDoesNotThrow()
    {
        VerifyReport report = sample();
        report.runs[0].root = "/data/\xff\xfe/ckpts";
        const std::string text = VerifyJson::toText(report);
        QVERIFY(text.find("\"root\"") != std::string::npos);
    }

    void badInputIsError_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("not json") << "{\"runs\": [";
        QTest::newRow("no totals") << "{\"runs\": []}";
        QTest::newRow("unknown status")
            << "{\"runs\": [{\"root\": \"/r\", \"epochs\": [{\"epoch\": 1, \"status\": \"meh\"}]}],"
               " \"totals\": {}}";
    }
    void badInputIsError()
    {
        QFETCH(QString, text);
        auto report = VerifyJson::fromText(text.toStdString(), "saved.json");
        QVERIFY(!report.ok());
        QVERIFY(report.error().message.find("saved.json") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(tst_VerifyJson)
#include "tst_VerifyJson.moc"
