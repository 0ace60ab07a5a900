#include "PythonRunner.h"
#include "writer/KerasH5Reader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;

class tst_KerasH5Reader : public QObject
{
    Q_OBJECT

private slots:
    void readsH5pyVariableLengthStrings();
    void notHdf5IsAnError();
    void missingLayerNamesIsAnError();
};

// A file in Keras' layout written by h5py with variable-length str attributes
// (what newer h5py/Keras versions produce for some attributes).
void tst_KerasH5Reader::readsH5pyVariableLengthStrings()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("vlen.h5");
    const auto r = ckpt::test::runPython(
        "import sys, h5py, numpy as np\n"
        "f = h5py.File(sys.argv[1], 'w')\n"
        "f.attrs['keras_version'] = '2.4.0'\n"
        "f.attrs['model_config'] = '{\"class_name\": \"Sequential\", \"config\": {\"name\": \"s\", "
        "\"layers\": [{\"class_name\": \"Dense\", \"config\": {\"name\": \"d\", \"activation\": "
        "\"tanh\"}}]}}'\n"
        "w = f.create_group('model_weights')\n"
        "w.attrs['layer_names'] = np.array(['d'], dtype=h5py.string_dtype())\n"
        "g = w.create_group('d')\n"
        "g.attrs['weight_names'] = np.array(['d/kernel:0', 'd/bias:0'], "
        "dtype=h5py.string_dtype())\n"
        "g['d/kernel:0'] = np.arange(6, dtype='float64').reshape(3, 2)\n"
        "g['d/bias:0'] = np.array([0.5, -0.5], dtype='float32')\n"
        "f.close()\n",
        {path});
    if (!r.started)
        QSKIP("python3 is not available");
    if (r.exitCode != 0 && r.err.contains("No module named 'h5py'"))
        QSKIP("h5py is not installed");
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    auto m = KerasH5Reader::read(path.toStdString());
    QVERIFY2(m.ok(), m.ok() ? "" : m.error().message.c_str());
    QCOMPARE(m->layers.size(), size_t(1));
    QCOMPARE(m->layers[0].inputs, 3);
    QCOMPARE(m->layers[0].units, 2);
    QCOMPARE(m->layers[0].kernel, (std::vector<float>{0, 1, 2, 3, 4, 5})); // float64 converted
    QCOMPARE(m->layers[0].bias, (std::vector<float>{0.5f, -0.5f}));
    QCOMPARE(m->layers[0].activation, std::string("tanh"));
    QCOMPARE(m->kerasVersion, std::string("2.4.0"));
}

void tst_KerasH5Reader::notHdf5IsAnError()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("model.h5");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("PK\x03\x04 this is a zip, not HDF5");
    f.close();
    auto m = KerasH5Reader::read(path.toStdString());
    QVERIFY(!m.ok());
    QVERIFY(m.error().message.find(path.toStdString()) != std::string::npos);
    QVERIFY(m.error().message.find("HDF5") != std::string::npos);
    QVERIFY(!KerasH5Reader::read(dir.filePath("absent.h5").toStdString()).ok());
}

void tst_KerasH5Reader::missingLayerNamesIsAnError()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("plain.h5");
    const auto r = ckpt::test::runPython("import sys, h5py\n"
                                         "f = h5py.File(sys.argv[1], 'w')\n"
                                         "f['x'] = [1, 2, 3]\n",
                                         {path});
    if (!r.started || (r.exitCode != 0 && r.err.contains("h5py")))
        QSKIP("python3 with h5py is not available");
    auto m = KerasH5Reader::read(path.toStdString());
    QVERIFY(!m.ok());
    QVERIFY(m.error().message.find("layer_names") != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_KerasH5Reader)
#include "tst_KerasH5Reader.moc"
