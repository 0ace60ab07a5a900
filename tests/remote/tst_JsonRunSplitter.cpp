#include "remote/JsonRunSplitter.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace ckpt;

class TestJsonRunSplitter : public QObject
{
    Q_OBJECT

private slots:
    void cutsRunsWhateverTheChunks_data()
    {
        QTest::addColumn<int>("chunk");
        QTest::newRow("byte by byte") << 1;
        QTest::newRow("7 bytes") << 7;
        QTest::newRow("whole") << 1000000;
    }
    void cutsRunsWhateverTheChunks()
    {
        QFETCH(int, chunk);
        // Braces, brackets, quotes and escapes inside strings must not count.
        const std::string runA = "{\"root\": \"/a {x} [y]\", \"layout\": \"candle\", "
                                 "\"epochs\": [\n{\"epoch\": 1, \"info\": {\"note\": "
                                 "\"say \\\"}\\\" and \\\\\"}, \"problems\": []}],\n"
                                 "\"problems\": []}";
        const std::string runB = "{\"root\": \"/b\", \"epochs\": [], \"problems\": []}";
        const std::string text = "{\"protocol\": 1, \"runs\": [\n" + runA + ",\n" + runB +
                                 "\n], \"walk_problems\": [{\"kind\": \"x\"}]}\n";
        JsonRunSplitter splitter;
        std::vector<std::string> runs;
        for (std::size_t i = 0; i < text.size(); i += static_cast<std::size_t>(chunk)) {
            auto done = splitter.feed(std::string_view(text).substr(i, chunk));
            runs.insert(runs.end(), done.begin(), done.end());
        }
        QCOMPARE(runs.size(), std::size_t(2));
        QVERIFY(splitter.complete());
        QVERIFY(nlohmann::json::parse(runs[0]) == nlohmann::json::parse(runA));
        QVERIFY(nlohmann::json::parse(runs[1]) == nlohmann::json::parse(runB));
        // What is around the runs comes out as a document of its own.
        QVERIFY2(nlohmann::json::parse(splitter.rest()) ==
                     nlohmann::json::parse("{\"protocol\": 1, \"runs\": [], "
                                           "\"walk_problems\": [{\"kind\": \"x\"}]}"),
                 splitter.rest().c_str());
    }

    void theFirstRunComesBeforeTheRest()
    {
        JsonRunSplitter splitter;
        QVERIFY(splitter.feed("{\"protocol\": 1, \"runs\": [\n{\"root\": \"/a\"").empty());
        QCOMPARE(splitter.feed("},\n{\"root\": ").size(), std::size_t(1));
        QVERIFY(!splitter.complete()); // cut off here, the document is not whole
        QCOMPARE(splitter.feed("\"/b\"}]}").size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestJsonRunSplitter)
#include "tst_JsonRunSplitter.moc"
