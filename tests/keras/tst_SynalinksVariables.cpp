// Synalinks .variables.json as a TensorSource: the variables listed, stats and
// the diff of two epochs with known values, and the files it refuses.
#include "KerasFixture.h"
#include "keras/SynalinksVariables.h"
#include "tensor/TensorSourceDiff.h"
#include "tensor/TensorSourceStats.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace ckpt;
using test::KerasFixture;
namespace fs = std::filesystem;

namespace {

const TensorInfo* find(const TensorSource& s, const std::string& name)
{
    for (const auto& t : s.tensors())
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace

class tst_SynalinksVariables : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path dir() const { return fs::path(m_tmp.path().toStdString()); }

private slots:
    void listsNumericVariables()
    {
        const fs::path f = dir() / "01-0.50.variables.json";
        KerasFixture::variables(f, 0.5, {1, 2, 3, 4});
        QVERIFY(TensorSources::recognises(f.string()));
        auto source = TensorSources::open(f.string());
        QVERIFY2(source.ok(), source ? "" : source.error().message.c_str());
        const TensorSource& s = **source;
        QCOMPARE(std::string(s.format()), std::string("synalinks"));
        QCOMPARE(s.tensors().size(), std::size_t(4));
        const TensorInfo* scores = find(s, "trainable_variables/generator/state/scores");
        QVERIFY(scores);
        QCOMPARE(scores->shape, (std::vector<std::uint64_t>{2, 2}));
        QCOMPARE(scores->dtype.kind, DTypeKind::Float64);
        QCOMPARE(scores->elements, std::uint64_t(4));
        QCOMPARE(scores->layer, std::string("trainable_variables/generator/state"));
        QVERIFY(!scores->optimizerState);
        const TensorInfo* temp = find(s, "trainable_variables/generator/state/temperature");
        QVERIFY(temp && temp->shape.empty() && temp->elements == 1);
        const TensorInfo* it =
            find(s, "optimizer_non_trainable_variables/random_few_shot/iterations/value");
        QVERIFY(it && it->optimizerState);
        QVERIFY(find(s, "metrics_variables/mean/total/value")->optimizerState);
        // Text fields are counted, not listed.
        QVERIFY(!find(s, "trainable_variables/generator/state/instructions"));
        const auto attrs = s.attributes();
        QCOMPARE(attrs[1].first, std::string("text_fields"));
        QCOMPARE(attrs[1].second, std::string("2"));
        // Elements on demand.
        double v[2] = {};
        const std::size_t index = std::size_t(scores - s.tensors().data());
        QVERIFY(s.read(index, 2, 2, v).ok());
        QCOMPARE(v[0], 3.0);
        QCOMPARE(v[1], 4.0);
        QVERIFY(!s.read(index, 3, 2, v).ok());
        QVERIFY(!s.read(99, 0, 1, v).ok());
    }

    void stats()
    {
        const fs::path f = dir() / "stats.variables.json";
        KerasFixture::variables(f, 0.5, {1, 2, 3, 4});
        auto source = SynalinksVariables::open(f.string());
        QVERIFY(source.ok());
        auto entry =
            TensorSourceStats::ofTensor(**source, "trainable_variables/generator/state/scores");
        QVERIFY2(entry.ok(), entry ? "" : entry.error().message.c_str());
        QCOMPARE(entry->stats.count, std::uint64_t(4));
        QCOMPARE(entry->stats.min, 1.0);
        QCOMPARE(entry->stats.max, 4.0);
        QCOMPARE(entry->stats.mean, 2.5);
        auto all = TensorSourceStats::of(**source);
        QVERIFY(all.ok());
        QCOMPARE(all->size(), std::size_t(4));
    }

    void diffOfTwoEpochs()
    {
        const fs::path a = dir() / "01.variables.json";
        const fs::path b = dir() / "02.variables.json";
        KerasFixture::variables(a, 0.5, {1, 2, 3, 4});
        KerasFixture::variables(b, 0.5, {1, 2, 3, 7});
        auto sa = TensorSources::open(a.string());
        auto sb = TensorSources::open(b.string());
        QVERIFY(sa.ok() && sb.ok());
        TensorDiff::Options o;
        auto diff = TensorSourceDiff::diff(**sa, **sb, o);
        QVERIFY2(diff.ok(), diff ? "" : diff.error().message.c_str());
        int changed = 0, same = 0;
        for (const auto& t : diff->tensors) {
            if (t.status == TensorDiffEntry::Status::Changed) {
                ++changed;
                QVERIFY(t.key.find("scores") != std::string::npos);
                QCOMPARE(t.maxAbsDiff, 3.0);
                QCOMPARE(t.l2Diff, 3.0);
                QCOMPARE(t.changedElements, std::uint64_t(1));
            } else if (t.status == TensorDiffEntry::Status::Same) {
                ++same;
            }
        }
        QCOMPARE(changed, 1);
        QCOMPARE(same, 3);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("not json") << "{\"trainable_variables\": {\"a\": [1, 2"
                                  << "not valid JSON";
        QTest::newRow("not an object") << "[1, 2, 3]"
                                       << "expected a JSON object";
        QTest::newRow("empty object") << "{}"
                                      << "expected a JSON object";
    }
    void refusals()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const fs::path f = dir() / "bad.variables.json";
        KerasFixture::write(f, text.toStdString());
        auto source = SynalinksVariables::open(f.string());
        QVERIFY(!source.ok());
        QVERIFY2(source.error().message.find(says.toStdString()) != std::string::npos,
                 source.error().message.c_str());
        QVERIFY(source.error().message.find(f.string()) != std::string::npos);
    }

    void raggedArraysAreText()
    {
        const fs::path f = dir() / "ragged.variables.json";
        KerasFixture::write(f, R"({"trainable_variables": {"m": {"ragged": [[1, 2], [3]],)"
                               R"( "mixed": [1, "a"], "nested": [1, [2]], "ok": [[1], [2]]}}})");
        auto source = SynalinksVariables::open(f.string());
        QVERIFY(source.ok());
        QCOMPARE((*source)->tensors().size(), std::size_t(1));
        QCOMPARE((*source)->tensors()[0].name, std::string("trainable_variables/m/ok"));
        QCOMPARE((*source)->tensors()[0].shape, (std::vector<std::uint64_t>{2, 1}));
        double v[2] = {};
        QVERIFY((*source)->read(0, 0, 2, v).ok());
        QCOMPARE(v[1], 2.0);
    }

    void oversizedFileRefused()
    {
        const fs::path f = dir() / "huge.variables.json";
        KerasFixture::write(f, "{");
        fs::resize_file(f, SynalinksVariables::kMaxBytes + 1); // sparse
        auto source = TensorSources::open(f.string());
        QVERIFY(!source.ok());
        QVERIFY2(source.error().message.find(f.string()) != std::string::npos,
                 source.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(tst_SynalinksVariables)
#include "tst_SynalinksVariables.moc"
