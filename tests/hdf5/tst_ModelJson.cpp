#include "H5Writer.h"
#include "ModelFixtures.h"
#include "report/ModelJson.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ckpt;
using ckpt::test::H5Writer;
using ckpt::test::ModelFixtures;
using nlohmann::ordered_json;

class tst_ModelJson : public QObject
{
    Q_OBJECT

private slots:
    void diffJson();
    void inspectJson();
    void zipJson();
    void nonFiniteIsNull();
};

void tst_ModelJson::diffJson()
{
    QTemporaryDir dir;
    const std::string a = dir.filePath("a.h5").toStdString();
    const std::string b = dir.filePath("b.h5").toStdString();
    {
        H5Writer wa(a);
        wa.floats("/model_weights/d/d/kernel:0", {2, 2}, {1, 0, 0, 1});
        wa.floats("/model_weights/d/d/bias:0", {2}, {0, 0});
        H5Writer wb(b);
        wb.floats("/model_weights/d/d/kernel:0", {2, 2}, {1, 0, 0, 2});
        wb.floats("/model_weights/d/d/bias:0", {2}, {0, 1});
        wb.floats("/model_weights/e/e/kernel:0", {1}, {1});
    }
    const auto d = TensorDiff::diff(a, b);
    QVERIFY(d.ok());
    // Round trip through text: what `ckpt diff --json` prints.
    const ordered_json j = ordered_json::parse(ModelJson::diff(*d).dump());
    QVERIFY(j.contains("tensors") && j.contains("layers"));
    QCOMPARE(j["tensors"].size(), std::size_t(3));
    const ordered_json& bias = j["tensors"][0];
    QCOMPARE(bias["path"].get<std::string>(), std::string("/model_weights/d/d/bias:0"));
    QVERIFY(bias["shape"] == ordered_json::parse("[2]"));
    QCOMPARE(bias["dtype"].get<std::string>(), std::string("float32"));
    QCOMPARE(bias["status"].get<std::string>(), std::string("changed"));
    QCOMPARE(bias["l2_diff"].get<double>(), 1.0);
    QVERIFY(bias["rel_change"].is_null()); // ||a|| == 0: infinite
    QVERIFY(bias["rel_change_inf"].get<bool>());
    QVERIFY(bias["cosine"].is_null());
    const ordered_json& kernel = j["tensors"][1];
    QCOMPARE(kernel["max_abs_diff"].get<double>(), 1.0);
    QCOMPARE(kernel["rel_change"].get<double>(), 1.0 / std::sqrt(2.0));
    QCOMPARE(kernel["cosine"].get<double>(), 3.0 / (std::sqrt(2.0) * std::sqrt(5.0)));
    const ordered_json& onlyB = j["tensors"][2];
    QCOMPARE(onlyB["status"].get<std::string>(), std::string("only_b"));
    QVERIFY(onlyB["l2_diff"].is_null());
    QCOMPARE(onlyB["path"].get<std::string>(), std::string("/model_weights/e/e/kernel:0"));
    for (const auto& t : j["tensors"]) {
        for (const char* key : {"path", "shape", "dtype", "l2_diff", "rel_change", "max_abs_diff",
                                "cosine", "status"})
            QVERIFY2(t.contains(key), key);
    }
    QCOMPARE(j["layers"][0]["name"].get<std::string>(), std::string("d"));
    QCOMPARE(j["layers"][0]["tensors"].get<int>(), 2);
}

void tst_ModelJson::inspectJson()
{
    QTemporaryDir dir;
    const std::string file = dir.filePath("model.h5").toStdString();
    ModelFixtures::keras2Model(file);
    const auto sniff = ModelSniffer::sniff(file);
    const auto report = H5Inspector::inspect(file);
    const auto stats = TensorStats::ofFile(file);
    QVERIFY(sniff.ok() && report.ok() && stats.ok());
    const ordered_json j =
        ordered_json::parse(ModelJson::inspect(*sniff, &*report, &*stats).dump());
    QCOMPARE(j["format"].get<std::string>(), std::string("hdf5"));
    QCOMPARE(j["keras"]["layout"].get<std::string>(), std::string("keras2-model"));
    QCOMPARE(j["keras"]["layers"][2]["name"].get<std::string>(), std::string("dense_1"));
    QVERIFY(j["keras"]["model_config"].is_object());
    QCOMPARE(j["keras"]["model_config"]["class_name"].get<std::string>(),
             std::string("Sequential"));
    const ordered_json& tree = j["tree"];
    QCOMPARE(tree["kind"].get<std::string>(), std::string("group"));
    QCOMPARE(tree["children"][0]["name"].get<std::string>(), std::string("model_weights"));
    bool sawVersion = false;
    for (const auto& a : tree["attributes"]) {
        if (a["name"] == "keras_version") {
            sawVersion = true;
            QCOMPARE(a["value"].get<std::string>(), std::string("2.12.0"));
        }
    }
    QVERIFY(sawVersion);
    const ordered_json& dense = tree["children"][0]["children"][0];
    QCOMPARE(dense["name"].get<std::string>(), std::string("dense"));
    QVERIFY(dense["attributes"][0]["value"] ==
            ordered_json::parse(R"(["dense/kernel:0", "dense/bias:0"])"));
    QCOMPARE(j["stats"].size(), std::size_t(6));
    // Depth-first in name order.
    QCOMPARE(j["stats"][0]["path"].get<std::string>(),
             std::string("/model_weights/dense/dense/bias:0"));
    QCOMPARE(j["stats"][0]["count"].get<int>(), 3);
    QCOMPARE(j["stats"][5]["path"].get<std::string>(),
             std::string("/optimizer_weights/Adam/iter:0"));
    QVERIFY(j["stats"][5]["shape"].empty());
}

void tst_ModelJson::zipJson()
{
    QTemporaryDir dir;
    const std::string file = dir.filePath("model.h5").toStdString();
    ModelFixtures::zip(file, {{"archive/data.pkl", "x"}, {"archive/version", "3\n"}});
    const auto sniff = ModelSniffer::sniff(file);
    QVERIFY(sniff.ok());
    const ordered_json j = ModelJson::inspect(*sniff, nullptr, nullptr);
    QCOMPARE(j["format"].get<std::string>(), std::string("zip"));
    QCOMPARE(j["zip"]["kind"].get<std::string>(), std::string("torch"));
    QCOMPARE(j["zip"]["entries"].size(), std::size_t(2));
    QVERIFY(!j.contains("tree"));
}

void tst_ModelJson::nonFiniteIsNull()
{
    QVERIFY(ModelJson::number(std::nan("")).is_null());
    QVERIFY(ModelJson::number(INFINITY).is_null());
    QCOMPARE(ModelJson::number(1.5).get<double>(), 1.5);
    ValueStats empty;
    const ordered_json s = ModelJson::stats(empty);
    QVERIFY(s["mean"].is_null());
    QVERIFY(s["std"].is_null());
    QCOMPARE(s["count"].get<int>(), 0);
}

QTEST_GUILESS_MAIN(tst_ModelJson)
#include "tst_ModelJson.moc"
