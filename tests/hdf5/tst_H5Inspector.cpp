#include "H5Writer.h"
#include "ModelFixtures.h"
#include "hdf5/H5Inspector.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace ckpt;
using ckpt::test::H5Writer;
using ckpt::test::ModelFixtures;
using Shape = std::vector<std::uint64_t>;

class tst_H5Inspector : public QObject
{
    Q_OBJECT

private slots:
    void keras2Model();
    void keras2WeightsOnly();
    void keras3Weights();
    void genericFile();
    void attributesOfEveryKind();
    void chunkingAndFilters();
    void hardLinkListedOnce();

private:
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }
    QTemporaryDir m_dir;
};

void tst_H5Inspector::keras2Model()
{
    const std::string file = path("keras2.h5");
    ModelFixtures::keras2Model(file);
    const auto r = H5Inspector::inspect(file);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    const KerasSummary& k = r->keras;
    QCOMPARE(k.layout, KerasSummary::Layout::Keras2Model);
    QCOMPARE(k.kerasVersion, std::string("2.12.0"));
    QCOMPARE(k.backend, std::string("tensorflow"));
    QCOMPARE(k.modelClass, std::string("Sequential"));
    QCOMPARE(k.optimizerClass, std::string("Adam"));
    // model_config pretty-printed: the same JSON, on several lines.
    QVERIFY(k.modelConfig.find('\n') != std::string::npos);
    QVERIFY(nlohmann::json::parse(k.modelConfig) ==
            nlohmann::json::parse(ModelFixtures::modelConfigJson()));
    QVERIFY(k.trainingConfig.find("\"learning_rate\"") != std::string::npos);

    // layer_names0 + layer_names1, in Keras order (not name order).
    QCOMPARE(k.layers.size(), std::size_t(3));
    QCOMPARE(k.layers[0].name, std::string("dense"));
    QCOMPARE(k.layers[1].name, std::string("dropout"));
    QCOMPARE(k.layers[2].name, std::string("dense_1"));
    QCOMPARE(k.layers[0].className, std::string("Dense"));
    QCOMPARE(k.layers[1].className, std::string("Dropout"));
    QCOMPARE(k.layers[0].weights.size(), std::size_t(2));
    QCOMPARE(k.layers[1].weights.size(), std::size_t(0));
    QCOMPARE(k.layers[0].weights[0].name, std::string("dense/kernel:0"));
    QCOMPARE(k.layers[0].weights[0].path, std::string("/model_weights/dense/dense/kernel:0"));
    QCOMPARE(k.layers[0].weights[0].shape, (Shape{4, 3}));
    QCOMPARE(k.layers[0].weights[0].dtype.name, std::string("float32"));
    QCOMPARE(k.layers[0].weights[0].bytes, std::uint64_t(48));
    QCOMPARE(k.layers[2].weights[1].path, std::string("/model_weights/dense_1/dense_1/bias:0"));
    QCOMPARE(k.layers[0].params, std::uint64_t(15));
    QCOMPARE(k.totalParams, std::uint64_t(15 + 8));
    QCOMPARE(k.optimizerWeights.size(), std::size_t(2));
    QCOMPARE(k.optimizerWeights[0].name, std::string("Adam/iter:0"));
    QCOMPARE(k.optimizerWeights[0].dtype.name, std::string("int64"));
    QCOMPARE(k.optimizerWeights[1].shape, (Shape{4, 3}));
    QVERIFY(k.notes.empty());
    QCOMPARE(r->datasets, std::uint64_t(6));
    QCOMPARE(r->datasetBytes, std::uint64_t(48 + 12 + 24 + 8 + 8 + 48));
}

void tst_H5Inspector::keras2WeightsOnly()
{
    const std::string file = path("weights.h5");
    ModelFixtures::keras2Weights(file);
    const auto r = H5Inspector::inspect(file);
    QVERIFY(r.ok());
    QCOMPARE(r->keras.layout, KerasSummary::Layout::Keras2Weights);
    QCOMPARE(r->keras.layers.size(), std::size_t(3));
    QCOMPARE(r->keras.layers[2].weights[0].path, std::string("/dense_1/dense_1/kernel:0"));
    QCOMPARE(r->keras.kerasVersion, std::string("2.12.0"));
    QVERIFY(r->keras.modelConfig.empty());
}

void tst_H5Inspector::keras3Weights()
{
    const std::string file = path("model.weights.h5");
    ModelFixtures::keras3Weights(file);
    const auto r = H5Inspector::inspect(file);
    QVERIFY(r.ok());
    const KerasSummary& k = r->keras;
    QCOMPARE(k.layout, KerasSummary::Layout::Keras3Weights);
    QCOMPARE(k.layers.size(), std::size_t(2));
    QCOMPARE(k.layers[0].name, std::string("dense"));
    QCOMPARE(k.layers[1].name, std::string("dense_1"));
    QCOMPARE(k.layers[1].weights[0].path, std::string("/layers/dense_1/vars/0"));
    QCOMPARE(k.layers[1].weights[0].dtype.name, std::string("bfloat16"));
    QCOMPARE(k.layers[1].weights[0].bytes, std::uint64_t(12));
    QCOMPARE(k.layers[1].weights[1].dtype.name, std::string("float32"));
    QCOMPARE(k.optimizerWeights.size(), std::size_t(2));
    QCOMPARE(k.optimizerWeights[0].dtype.name, std::string("int64"));
    QCOMPARE(k.totalParams, std::uint64_t(23));
}

void tst_H5Inspector::genericFile()
{
    const std::string file = path("generic.h5");
    {
        H5Writer w(file);
        w.floats("/a/b/c", {2, 2}, {1, 2, 3, 4});
        const std::vector<double> d = {1.5};
        w.dataset("/scalar", H5T_IEEE_F64BE, H5T_NATIVE_DOUBLE, {}, d.data());
        const std::vector<std::uint16_t> h = {0x3c00, 0x4000};
        w.dataset("/half", H5Writer::halfType(), H5Writer::halfType(), {2}, h.data());
    }
    const auto r = H5Inspector::inspect(file);
    QVERIFY(r.ok());
    QCOMPARE(r->keras.layout, KerasSummary::Layout::None);
    QCOMPARE(r->groups, std::uint64_t(3)); // /, /a, /a/b
    QCOMPARE(r->datasets, std::uint64_t(3));
    const H5Node* c = r->root.find("/a/b/c");
    QVERIFY(c && c->dataset);
    QCOMPARE(c->path, std::string("/a/b/c"));
    QCOMPARE(c->dataset->layout, std::string("contiguous"));
    const H5Node* s = r->root.find("scalar");
    QVERIFY(s && s->dataset);
    QVERIFY(s->dataset->shape.empty());
    QCOMPARE(s->dataset->elements, std::uint64_t(1));
    QCOMPARE(s->dataset->dtype.name, std::string("float64"));
    QCOMPARE(r->root.find("half")->dataset->dtype.name, std::string("float16"));
    // Children in name order.
    QCOMPARE(r->root.children[0].name, std::string("a"));
    QCOMPARE(r->root.children[1].name, std::string("half"));
}

void tst_H5Inspector::attributesOfEveryKind()
{
    const std::string file = path("attrs.h5");
    {
        H5Writer w(file);
        w.floats("/x", {1}, {0});
        w.attrFixedString("/x", "fixed", "hello");
        w.attrVarString("/x", "vlen", "w\xc3\xb6rld");
        w.attrStrings("/x", "fixed_list", {"a", "bcd", ""});
        w.attrStrings("/x", "vlen_list", {"one", "two"}, true);
        w.attrDoubles("/x", "scalar", {2.5}, true);
        w.attrDoubles("/x", "array", {1, -2, 3.25});
        w.attrInt64("/x", "int", -7);
    }
    const auto r = H5Inspector::inspect(file);
    QVERIFY(r.ok());
    const H5Node* x = r->root.find("x");
    QVERIFY(x);
    QCOMPARE(x->attributes.size(), std::size_t(7));
    QCOMPARE(x->attribute("fixed")->strings, std::vector<std::string>{"hello"});
    QVERIFY(x->attribute("fixed")->shape.empty());
    QCOMPARE(x->attribute("vlen")->strings, std::vector<std::string>{"w\xc3\xb6rld"});
    QCOMPARE(x->attribute("fixed_list")->strings, (std::vector<std::string>{"a", "bcd", ""}));
    QCOMPARE(x->attribute("fixed_list")->shape, Shape{3});
    QCOMPARE(x->attribute("vlen_list")->strings, (std::vector<std::string>{"one", "two"}));
    QCOMPARE(x->attribute("scalar")->numbers, std::vector<double>{2.5});
    QCOMPARE(x->attribute("array")->numbers, (std::vector<double>{1, -2, 3.25}));
    QCOMPARE(x->attribute("int")->numbers, std::vector<double>{-7});
    QCOMPARE(x->attribute("int")->dtype.name, std::string("int64"));
    QVERIFY(x->attribute("fixed")->isString());
}

void tst_H5Inspector::chunkingAndFilters()
{
    const std::string file = path("chunked.h5");
    const std::vector<float> zeros(100 * 64, 0.0f);
    {
        H5Writer w(file);
        w.dataset("/z", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {100, 64}, zeros.data(), {10, 64}, 4,
                  true);
    }
    const auto r = H5Inspector::inspect(file);
    QVERIFY(r.ok());
    const H5DatasetInfo& info = *r->root.find("z")->dataset;
    QCOMPARE(info.layout, std::string("chunked"));
    QCOMPARE(info.chunk, (Shape{10, 64}));
    QCOMPARE(info.filters, (std::vector<std::string>{"shuffle", "deflate"}));
    QCOMPARE(info.bytes, std::uint64_t(100 * 64 * 4));
    QVERIFY(info.storageBytes < info.bytes / 10); // zeros compress
}

void tst_H5Inspector::hardLinkListedOnce()
{
    const std::string file = path("links.h5");
    {
        H5Writer w(file);
        w.floats("/g/x", {2}, {1, 2});
        w.hardLink("/g", "/h/again");
        w.hardLink("/", "/g/root"); // a cycle
    }
    const auto r = H5Inspector::inspect(file);
    QVERIFY(r.ok());
    QCOMPARE(r->datasets, std::uint64_t(1));
    QCOMPARE(r->root.find("h/again")->linkTo, std::string("/g"));
    QCOMPARE(r->root.find("g/root")->linkTo, std::string("/"));
}

QTEST_GUILESS_MAIN(tst_H5Inspector)
#include "tst_H5Inspector.moc"
