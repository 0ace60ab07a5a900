#include "config/ConfigWriter.h"
#include "config/ParamDiff.h"
#include "config/ParamSet.h"
#include "io/AtomicFile.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
namespace fs = std::filesystem;

namespace {

const char* kIni = "# NT3 benchmark\n"
                   "[Global_Params]\n"
                   "learning_rate = 1e-3  \n"
                   "; keep this comment\n"
                   "epochs=20\n"
                   "dense = [500, 100, 50]\n"
                   "ckpt_save_best = True\n"
                   "\n"
                   "[Monitor_Params]\n"
                   "timeout = 3600\n";

const char* kJson = "{\n"
                    "  \"Global_Params\": {\n"
                    "    \"learning_rate\": 0.001,\n"
                    "    \"epochs\": 30,\n"
                    "    \"dense\": [500, 100, 50],\n"
                    "    \"ckpt_save_best\": true\n"
                    "  },\n"
                    "  \"Monitor_Params\": {\"timeout\": 3600, \"solver\": \"sgd\"}\n"
                    "}\n";

std::string write(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    if (Status st = writeFileAtomically(path, text); !st)
        qFatal("%s", st.error().message.c_str());
    return path;
}

} // namespace

class tst_ParamSet : public QObject
{
    Q_OBJECT

private slots:
    void readsIniAndJson_data();
    void readsIniAndJson();
    void malformedValueNamesFileLineKey_data();
    void malformedValueNamesFileLineKey();
    void equivalence_data();
    void equivalence();
    void typedDiffAcrossFormats();
    void writeNewKeepsCommentsAndNeverTouchesOriginal();
    void writeNewJson();
    void readsLightningHparamsYaml();
    void editsKeepTheirType_data();
    void editsKeepTheirType();
};

void tst_ParamSet::readsIniAndJson_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("epochsLine");
    QTest::newRow("ini") << "nt3.ini" << kIni << int(ParamSet::Format::Ini) << 5;
    QTest::newRow("json") << "nt3.json" << kJson << int(ParamSet::Format::Json) << 4;
    QTest::newRow("json sniffed") << "nt3.txt" << kJson << int(ParamSet::Format::Json) << 4;
}

void tst_ParamSet::readsIniAndJson()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(int, format);
    QFETCH(int, epochsLine);
    QTemporaryDir dir;
    const std::string path = write(dir, name.toLatin1().constData(), text.toStdString());
    auto set = ParamSet::readFile(path);
    QVERIFY2(set, set ? "" : set.error().message.c_str());
    QCOMPARE(int(set->format()), format);
    QCOMPARE(set->origin(), path);
    const auto* epochs = set->find("EPOCHS");
    QVERIFY(epochs);
    QCOMPARE(epochs->section, std::string("Global_Params"));
    QCOMPARE(epochs->line, epochsLine);
    QCOMPARE(set->find("dense")->value.pythonLiteral(), std::string("[500, 100, 50]"));
    QCOMPARE(set->find("timeout")->section, std::string("Monitor_Params"));
    QCOMPARE(set->sections(), (std::vector<std::string>{"Global_Params", "Monitor_Params"}));
    QCOMPARE(set->toHyperParams().getInt("timeout", 0).value(), std::int64_t{3600});
}

void tst_ParamSet::malformedValueNamesFileLineKey_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");
    QTest::newRow("ini bare word") << "a.ini"
                                   << "[Global_Params]\nepochs = 3\noptimizer = adam\n"
                                   << ":3: value of 'optimizer'";
    QTest::newRow("ini unclosed list") << "b.ini"
                                       << "[G]\n\ndense = [1, 2\n"
                                       << ":3: value of 'dense'";
    QTest::newRow("json nested object") << "c.json"
                                        << "{\"epochs\": 3,\n \"opt\": {\"a\": {\"b\": 1}}}"
                                        << ":2: value of 'a'";
    QTest::newRow("json syntax") << "d.json"
                                 << "{\"epochs\": 3,\n \"lr\": }"
                                 << "d.json";
}

void tst_ParamSet::malformedValueNamesFileLineKey()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(QString, where);
    QTemporaryDir dir;
    const std::string path = write(dir, name.toLatin1().constData(), text.toStdString());
    auto set = ParamSet::readFile(path);
    QVERIFY(!set);
    const QString message = QString::fromStdString(set.error().message);
    QVERIFY2(message.startsWith(QString::fromStdString(path)), qPrintable(message));
    QVERIFY2(message.contains(where), qPrintable(message));
}

void tst_ParamSet::equivalence_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("equal");
    QTest::newRow("exponent vs decimal") << "1e-3"
                                         << "0.001" << true;
    QTest::newRow("int vs float") << "3"
                                  << "3.0" << true;
    QTest::newRow("True vs 'true'") << "True"
                                    << "'true'" << true;
    QTest::newRow("False vs 'no'") << "False"
                                   << "'no'" << true;
    QTest::newRow("tuple vs list") << "(1, 2.0)"
                                   << "[1, 2]" << true;
    QTest::newRow("nested lists") << "[[1, 2], 'a']"
                                  << "([1, 2.0], \"a\")" << true;
    QTest::newRow("number vs numeric string") << "0.5"
                                              << "'0.5'" << true;
    QTest::newRow("different numbers") << "1e-3"
                                       << "1e-4" << false;
    QTest::newRow("list lengths") << "[1, 2]"
                                  << "[1, 2, 3]" << false;
    QTest::newRow("None vs 0") << "None"
                               << "0" << false;
    QTest::newRow("strings are case-sensitive") << "'Adam'"
                                                << "'adam'" << false;
    QTest::newRow("True vs 2") << "True"
                               << "2" << false;
}

void tst_ParamSet::equivalence()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, equal);
    auto x = HyperValue::parseLiteral(a.toStdString());
    auto y = HyperValue::parseLiteral(b.toStdString());
    QVERIFY(x && y);
    QCOMPARE(x->equivalent(*y), equal);
    QCOMPARE(y->equivalent(*x), equal);
}

void tst_ParamSet::typedDiffAcrossFormats()
{
    QTemporaryDir dir;
    auto ini = ParamSet::readFile(write(dir, "a.ini", kIni));
    auto json = ParamSet::readFile(write(dir, "b.json", kJson));
    QVERIFY(ini && json);
    const auto changes = ParamDiff::compare(*ini, *json);
    // learning_rate 1e-3 == 0.001, dense equal, True == true: only epochs and solver.
    QCOMPARE(changes.size(), std::size_t{2});
    QCOMPARE(changes[0].key, std::string("epochs"));
    QCOMPARE(changes[0].kind, ParamChange::Kind::Changed);
    QCOMPARE(changes[0].section, std::string("Global_Params"));
    QCOMPARE(changes[0].before->pythonLiteral(), std::string("20"));
    QCOMPARE(changes[0].after->pythonLiteral(), std::string("30"));
    QCOMPARE(changes[0].lineBefore, 5);
    QCOMPARE(changes[1].key, std::string("solver"));
    QCOMPARE(changes[1].kind, ParamChange::Kind::Added);
    QCOMPARE(changes[1].section, std::string("Monitor_Params"));
    QVERIFY(!changes[1].before);

    const auto back = ParamDiff::compare(*json, *ini);
    QCOMPARE(back.size(), std::size_t{2});
    QCOMPARE(back[1].kind, ParamChange::Kind::Removed);
}

void tst_ParamSet::writeNewKeepsCommentsAndNeverTouchesOriginal()
{
    QTemporaryDir dir;
    const std::string original = write(dir, "nt3.ini", kIni);
    auto set = ParamSet::readFile(original);
    QVERIFY(set);
    auto lr = ParamEdit::parse("learning_rate=3e-4");
    auto opt = ParamEdit::parse("optimizer=sgd");
    QVERIFY(lr && opt);
    const fs::path records = ConfigWriter::configsDir(fs::path(dir.path().toStdString()) / "run");
    QCOMPARE(records, fs::path(dir.path().toStdString()) / "run" / ".ckpt-studio" / "configs");
    auto first = ConfigWriter::writeNew(*set, {*lr, *opt}, records);
    QVERIFY2(first, first ? "" : first.error().message.c_str());
    auto second = ConfigWriter::writeNew(*set, {*lr}, records);
    QVERIFY(second);
    QVERIFY(*first != *second); // a new file each time, nothing replaced
    QCOMPARE(first->parent_path(), records);
    QCOMPARE(first->extension().string(), std::string(".ini"));

    QCOMPARE(readFile(original).value(), std::string(kIni));
    const std::string edited = readFile(*first).value();
    QCOMPARE(edited, std::string("# NT3 benchmark\n"
                                 "[Global_Params]\n"
                                 "learning_rate = 0.0003\n"
                                 "; keep this comment\n"
                                 "epochs=20\n"
                                 "dense = [500, 100, 50]\n"
                                 "ckpt_save_best = True\n"
                                 "optimizer = 'sgd'\n"
                                 "\n"
                                 "[Monitor_Params]\n"
                                 "timeout = 3600\n"));
    auto reread = ParamSet::readFile(*first);
    QVERIFY(reread);
    const auto changes = ParamDiff::compare(*set, *reread);
    QCOMPARE(changes.size(), std::size_t{2});
    for (const auto& entry : fs::directory_iterator(records))
        QVERIFY2(entry.path().filename().string().front() != '.', "no temporary left behind");
}

void tst_ParamSet::writeNewJson()
{
    QTemporaryDir dir;
    const std::string original = write(dir, "p.json", kJson);
    auto set = ParamSet::readFile(original);
    QVERIFY(set);
    auto epochs = ParamEdit::parse("epochs=40");
    auto fresh = ParamEdit::parse("seed=7");
    auto written = ConfigWriter::writeNew(*set, {*epochs, *fresh}, dir.path().toStdString());
    QVERIFY(written);
    QCOMPARE(readFile(original).value(), std::string(kJson));
    auto reread = ParamSet::readFile(*written);
    QVERIFY2(reread, reread ? "" : reread.error().message.c_str());
    QCOMPARE(reread->find("epochs")->value.pythonLiteral(), std::string("40"));
    QCOMPARE(reread->find("epochs")->section, std::string("Global_Params"));
    QCOMPARE(reread->find("seed")->value.pythonLiteral(), std::string("7"));
    QCOMPARE(reread->params().front().key, std::string("learning_rate")); // order kept
}

// Lightning's hparams.yaml (save_hyperparameters): top-level scalars with
// their lines; what is not read is listed, and editing is refused by name.
void tst_ParamSet::readsLightningHparamsYaml()
{
    QTemporaryDir dir;
    const std::string path = write(dir, "hparams.yaml",
                                   "lr: 0.001\n"
                                   "batch_size: 32\n"
                                   "model_name: 'tiny net'\n"
                                   "optimizer:\n"
                                   "  name: adam\n"
                                   "use_bn: true\n");
    auto set = ParamSet::readFile(path);
    QVERIFY2(set, set ? "" : set.error().message.c_str());
    QCOMPARE(int(set->format()), int(ParamSet::Format::Yaml));
    QCOMPARE(set->formatName(), std::string_view("yaml"));
    QCOMPARE(set->params().size(), std::size_t(4));
    QCOMPARE(set->find("LR")->value.pythonLiteral(), std::string("0.001"));
    QCOMPARE(set->find("batch_size")->line, 2);
    QCOMPARE(set->find("model_name")->value.pythonLiteral(), std::string("'tiny net'"));
    QCOMPARE(set->find("use_bn")->line, 6);
    QCOMPARE(set->sections(), (std::vector<std::string>{""}));
    QCOMPARE(set->notes().size(), std::size_t(1));
    QVERIFY2(set->notes()[0].find(path + ":4: optimizer holds a nested value") == 0,
             set->notes()[0].c_str());
    // Edited in place: the nested block it did not read stays as it was.
    auto lr = ParamEdit::parse("lr=0.01");
    QVERIFY(lr);
    auto edited = ConfigWriter::render(*set, {*lr});
    QVERIFY2(edited, edited ? "" : edited.error().message.c_str());
    QCOMPARE(*edited, std::string("lr: 0.01\n"
                                  "batch_size: 32\n"
                                  "model_name: 'tiny net'\n"
                                  "optimizer:\n"
                                  "  name: adam\n"
                                  "use_bn: true\n"));
}

// An edit's type must match the run's value unless it says otherwise: a typo
// does not turn a list into a string.
void tst_ParamSet::editsKeepTheirType_data()
{
    QTest::addColumn<QString>("old");
    QTest::addColumn<QString>("edit");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("list typo") << "[64, 64]"
                               << "dense=[64, 64" << false;
    QTest::newRow("list") << "[64, 64]"
                          << "dense=[128]" << true;
    QTest::newRow("quoted string for a list") << "[64, 64]"
                                              << "dense='[64, 64'" << true;
    QTest::newRow("int to float") << "32"
                                  << "dense=0.5" << true;
    QTest::newRow("number typo") << "0.001"
                                 << "dense=1e-3x" << false;
    QTest::newRow("bool word") << "True"
                               << "dense=yes" << true;
    QTest::newRow("bool typo") << "True"
                               << "dense=yess" << false;
    QTest::newRow("None to word") << "None"
                                  << "dense=adam" << false;
    QTest::newRow("None to quoted") << "None"
                                    << "dense='adam'" << true;
    QTest::newRow("string to word") << "'relu'"
                                    << "dense=tanh" << true;
}

void tst_ParamSet::editsKeepTheirType()
{
    QFETCH(QString, old);
    QFETCH(QString, edit);
    QFETCH(bool, accepted);
    auto value = HyperValue::parseLiteral(old.toStdString());
    QVERIFY(value);
    auto e = ParamEdit::parse(edit.toStdString());
    QVERIFY(e);
    const Status st = e->checkType(&*value);
    QCOMPARE(bool(st), accepted);
    if (!accepted) {
        QVERIFY2(st.error().message.starts_with("dense: "), st.error().message.c_str());
        QVERIFY2(st.error().message.find("quote it") != std::string::npos,
                 st.error().message.c_str());
    }
}

QTEST_GUILESS_MAIN(tst_ParamSet)
#include "tst_ParamSet.moc"
