#include "PythonRunner.h"
#include "hdf5/H5Lock.h"
#include "writer/KerasH5Reader.h"
#include "writer/KerasH5Writer.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <hdf5.h>
#include <nlohmann/json.hpp>

using namespace ckpt;

namespace {

KerasModel sampleModel()
{
    KerasModel m;
    KerasDense a;
    a.name = "dense";
    a.inputs = 2;
    a.units = 3;
    a.activation = "relu";
    a.kernel = {0.5f, -1.25f, 2.0f, 0.125f, 3.5f, -0.75f};
    a.bias = {0.1f, 0.2f, 0.3f};
    KerasDense b;
    b.name = "dense_1";
    b.inputs = 3;
    b.units = 2;
    b.activation = "softmax";
    b.kernel = {1, 2, 3, 4, 5, 6};
    b.bias = {-1, 1};
    m.layers = {a, b};
    m.optimizerConfig = {{"class_name", "Adam"},
                         {"config", {{"name", "Adam"}, {"learning_rate", 0.001}}}};
    m.optimizerIterations = 42;
    m.optimizerWeights.push_back(KerasTensor{"Adam/dense/kernel/m:0", {2, 3}, {1, 2, 3, 4, 5, 6}});
    return m;
}

// Test-side HDF5 readers, written against the C API independently of KerasH5Reader.
std::vector<std::string> stringAttr(hid_t loc, const char* obj, const char* name)
{
    H5Lock lock;
    std::vector<std::string> out;
    const hid_t attr = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0)
        return out;
    const hid_t type = H5Aget_type(attr);
    const hid_t space = H5Aget_space(attr);
    const size_t width = H5Tget_size(type);
    const auto n = static_cast<size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<char> buf(width * n);
    if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
        std::vector<char*> ptrs(n, nullptr);
        if (H5Aread(attr, type, ptrs.data()) >= 0)
            for (char* p : ptrs) {
                out.emplace_back(p ? p : "");
                H5free_memory(p);
            }
    } else if (H5Tget_class(type) == H5T_STRING && H5Aread(attr, type, buf.data()) >= 0) {
        for (size_t i = 0; i < n; ++i)
            out.emplace_back(std::string(buf.data() + i * width, width).c_str());
    }
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attr);
    return out;
}

std::vector<float> floatDataset(hid_t file, const char* path, std::vector<hsize_t>* dims)
{
    H5Lock lock;
    std::vector<float> out;
    const hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    if (ds < 0)
        return out;
    const hid_t space = H5Dget_space(ds);
    const hid_t type = H5Dget_type(ds);
    dims->assign(static_cast<size_t>(H5Sget_simple_extent_ndims(space)), 0);
    H5Sget_simple_extent_dims(space, dims->data(), nullptr);
    if (H5Tequal(type, H5T_IEEE_F32LE) > 0) {
        out.resize(static_cast<size_t>(H5Sget_simple_extent_npoints(space)));
        H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(ds);
    return out;
}

bool isVariableString(hid_t loc, const char* obj, const char* name)
{
    H5Lock lock;
    const hid_t attr = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t type = H5Aget_type(attr);
    const bool vlen = H5Tis_variable_str(type) > 0;
    H5Tclose(type);
    H5Aclose(attr);
    return vlen;
}

bool exists(hid_t file, const char* path)
{
    H5Lock lock;
    return H5Lexists(file, path, H5P_DEFAULT) > 0;
}

} // namespace

class tst_KerasH5Writer : public QObject
{
    Q_OBJECT

private slots:
    void fullModelLayout();
    void weightsOnlyLayout();
    void h5pyReadsTheFile();
    void longAttributesAreSplit();
    void replacesWithoutLeftovers();
    void unwritableDirectoryIsAnError();
};

void tst_KerasH5Writer::fullModelLayout()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.h5").toStdString();
    const Status st = KerasH5Writer::write(path, sampleModel());
    QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());

    hid_t file;
    {
        H5Lock lock;
        file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    }
    QVERIFY(file >= 0);
    QCOMPARE(stringAttr(file, ".", "keras_version"), std::vector<std::string>{"2.11.0"});
    QCOMPARE(stringAttr(file, ".", "backend"), std::vector<std::string>{"tensorflow"});
    QVERIFY(isVariableString(file, ".", "keras_version"));
    QVERIFY(!isVariableString(file, ".", "model_config"));
    QVERIFY(!isVariableString(file, "model_weights", "layer_names"));
    QCOMPARE(stringAttr(file, "model_weights", "keras_version"),
             std::vector<std::string>{"2.11.0"});
    const auto config = nlohmann::json::parse(stringAttr(file, ".", "model_config").at(0));
    QCOMPARE(config["class_name"].get<std::string>(), std::string("Sequential"));
    QCOMPARE(config["config"]["layers"].size(), size_t(3)); // InputLayer + 2 Dense
    QCOMPARE(config["config"]["layers"][1]["config"]["units"].get<int>(), 3);
    QCOMPARE(config["config"]["layers"][2]["config"]["activation"].get<std::string>(),
             std::string("softmax"));
    const auto training = nlohmann::json::parse(stringAttr(file, ".", "training_config").at(0));
    QCOMPARE(training["optimizer_config"]["class_name"].get<std::string>(), std::string("Adam"));

    QCOMPARE(stringAttr(file, "model_weights", "layer_names"),
             (std::vector<std::string>{"dense", "dense_1"}));
    QCOMPARE(stringAttr(file, "model_weights/dense_1", "weight_names"),
             (std::vector<std::string>{"dense_1/kernel:0", "dense_1/bias:0"}));
    std::vector<hsize_t> dims;
    QCOMPARE(floatDataset(file, "model_weights/dense/dense/kernel:0", &dims),
             sampleModel().layers[0].kernel);
    QCOMPARE(dims, (std::vector<hsize_t>{2, 3}));
    QCOMPARE(floatDataset(file, "model_weights/dense_1/dense_1/bias:0", &dims),
             (std::vector<float>{-1, 1}));
    QVERIFY(exists(file, "optimizer_weights"));
    QCOMPARE(stringAttr(file, "optimizer_weights", "weight_names"),
             (std::vector<std::string>{"Adam/iter:0", "Adam/dense/kernel/m:0"}));
    {
        H5Lock lock;
        H5Fclose(file);
    }

    auto back = KerasH5Reader::read(path);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->layers.size(), size_t(2));
    QCOMPARE(back->layers[1].kernel, sampleModel().layers[1].kernel);
    QCOMPARE(back->layers[0].activation, std::string("relu"));
    QCOMPARE(back->optimizerIterations, std::int64_t(42));
    QCOMPARE(back->optimizerWeights.size(), size_t(1));
    QCOMPARE(back->kerasVersion, std::string("2.11.0"));
}

void tst_KerasH5Writer::weightsOnlyLayout()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("weights.h5").toStdString();
    QVERIFY(KerasH5Writer::write(path, sampleModel(), true).ok());
    hid_t file;
    {
        H5Lock lock;
        file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    }
    QVERIFY(file >= 0);
    QVERIFY(!exists(file, "model_weights"));
    QVERIFY(!exists(file, "optimizer_weights"));
    QCOMPARE(stringAttr(file, ".", "layer_names"), (std::vector<std::string>{"dense", "dense_1"}));
    QVERIFY(stringAttr(file, ".", "model_config").empty());
    std::vector<hsize_t> dims;
    QCOMPARE(floatDataset(file, "dense/dense/kernel:0", &dims), sampleModel().layers[0].kernel);
    {
        H5Lock lock;
        H5Fclose(file);
    }
    auto back = KerasH5Reader::read(path);
    QVERIFY(back.ok());
    QCOMPARE(back->layers.size(), size_t(2));
    QCOMPARE(back->layers[0].bias, sampleModel().layers[0].bias);
}

void tst_KerasH5Writer::h5pyReadsTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("model.h5");
    QVERIFY(KerasH5Writer::write(path.toStdString(), sampleModel()).ok());
    const auto r = ckpt::test::runPython(
        "import sys, json, h5py, numpy as np\n"
        "f = h5py.File(sys.argv[1], 'r')\n"
        "a = f.attrs\n"
        "print(type(a['keras_version']).__name__, a['keras_version'], a['backend'])\n"
        "print(type(a['model_config']).__name__)\n"
        "cfg = json.loads(a['model_config'])\n"
        "print(cfg['class_name'], [l['class_name'] for l in cfg['config']['layers']])\n"
        "print(json.loads(a['training_config'])['optimizer_config']['config']['learning_rate'])\n"
        "w = f['model_weights']\n"
        "print([n.decode() for n in w.attrs['layer_names']])\n"
        "print([n.decode() for n in w['dense'].attrs['weight_names']])\n"
        "k = w['dense/dense/kernel:0']\n"
        "print(k.dtype, k.shape, k[()].tolist())\n"
        "print(w['dense_1/dense_1/bias:0'][()].tolist())\n"
        "print(int(f['optimizer_weights/Adam/iter:0'][()]))\n",
        {path});
    if (!r.started)
        QSKIP("python3 is not available");
    if (r.exitCode != 0 && r.err.contains("No module named 'h5py'"))
        QSKIP("h5py is not installed");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(r.out, QString("str 2.11.0 tensorflow\n"
                            "bytes_\n" // numpy.bytes_, as Keras reads it back
                            "Sequential ['InputLayer', 'Dense', 'Dense']\n"
                            "0.001\n"
                            "['dense', 'dense_1']\n"
                            "['dense/kernel:0', 'dense/bias:0']\n"
                            "float32 (2, 3) [[0.5, -1.25, 2.0], [0.125, 3.5, -0.75]]\n"
                            "[-1.0, 1.0]\n"
                            "42\n"));
}

void tst_KerasH5Writer::longAttributesAreSplit()
{
    // 700 names of 100 bytes = 70000 bytes > 64512: Keras splits into two chunks.
    KerasModel m;
    for (int i = 0; i < 700; ++i) {
        KerasDense d;
        d.name = "layer_" + std::to_string(i);
        d.name.resize(100, 'x');
        d.inputs = 1;
        d.units = 1;
        d.kernel = {static_cast<float>(i)};
        d.bias = {0};
        m.layers.push_back(d);
    }
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.h5").toStdString();
    QVERIFY(KerasH5Writer::write(path, m, true).ok());
    hid_t file;
    {
        H5Lock lock;
        file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    }
    QVERIFY(stringAttr(file, ".", "layer_names").empty());
    QCOMPARE(stringAttr(file, ".", "layer_names0").size(), size_t(350));
    QCOMPARE(stringAttr(file, ".", "layer_names1").size(), size_t(350));
    {
        H5Lock lock;
        H5Fclose(file);
    }
    auto back = KerasH5Reader::read(path);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->layers.size(), size_t(700));
    QCOMPARE(back->layers[699].kernel, std::vector<float>{699});
}

void tst_KerasH5Writer::replacesWithoutLeftovers()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.h5").toStdString();
    QVERIFY(KerasH5Writer::write(path, sampleModel()).ok());
    KerasModel changed = sampleModel();
    changed.layers[0].bias = {9, 9, 9};
    QVERIFY(KerasH5Writer::write(path, changed).ok());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"model.h5"});
    auto back = KerasH5Reader::read(path);
    QVERIFY(back.ok());
    QCOMPARE(back->layers[0].bias, (std::vector<float>{9, 9, 9}));
}

void tst_KerasH5Writer::unwritableDirectoryIsAnError()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("missing/sub/model.h5").toStdString();
    const Status st = KerasH5Writer::write(path, sampleModel());
    QVERIFY(!st.ok());
    QVERIFY(st.error().message.find("missing/sub/model.h5") != std::string::npos);
    KerasModel bad = sampleModel();
    bad.layers[0].bias.pop_back();
    const Status st2 = KerasH5Writer::write(dir.filePath("bad.h5").toStdString(), bad);
    QVERIFY(!st2.ok());
    QVERIFY(st2.error().message.find("'dense'") != std::string::npos);
    QVERIFY(!QFile::exists(dir.filePath("bad.h5")));
}

QTEST_GUILESS_MAIN(tst_KerasH5Writer)
#include "tst_KerasH5Writer.moc"
