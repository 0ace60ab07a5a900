#include "models/AttributeModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace ckpt;

namespace {

H5Attribute stringAttr(const std::string& name, std::vector<std::string> values)
{
    H5Attribute a;
    a.name = name;
    a.dtype = DType::of(DTypeKind::String);
    if (values.size() != 1)
        a.shape = {values.size()};
    a.strings = std::move(values);
    return a;
}

H5Attribute numberAttr(const std::string& name, std::vector<double> values, bool scalar)
{
    H5Attribute a;
    a.name = name;
    a.dtype = DType::of(DTypeKind::Float64);
    if (!scalar)
        a.shape = {values.size()};
    a.numbers = std::move(values);
    return a;
}

} // namespace

class tst_AttributeModel : public QObject
{
    Q_OBJECT
private slots:
    void passesModelTester();
    void valueText_data();
    void valueText();
    void jsonCellIsOneLine();
};

void tst_AttributeModel::passesModelTester()
{
    AttributeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setAttributes({stringAttr("keras_version", {"2.11.0"}), numberAttr("lr", {0.001}, true)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, AttributeModel::NameColumn).data().toString(),
             QStringLiteral("keras_version"));
    QCOMPARE(model.index(0, AttributeModel::ValueColumn).data().toString(),
             QStringLiteral("2.11.0"));
    model.setAttributes({});
    QCOMPARE(model.rowCount(), 0);
}

void tst_AttributeModel::valueText_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("json");
    QTest::newRow("plain string") << 0 << "tensorflow" << false;
    QTest::newRow("json object") << 1 << "{\n  \"a\": 1,\n  \"b\": [\n    true\n  ]\n}" << true;
    QTest::newRow("brace but not json") << 2 << "{not json" << false;
    QTest::newRow("string list") << 3 << "dense\ndense_1" << false;
    QTest::newRow("number scalar") << 4 << "0.5" << false;
    QTest::newRow("number array") << 5 << "[1, 2, 3]" << false;
}

void tst_AttributeModel::valueText()
{
    QFETCH(int, kind);
    QFETCH(QString, expected);
    QFETCH(bool, json);
    const H5Attribute attrs[] = {
        stringAttr("backend", {"tensorflow"}), stringAttr("cfg", {"{\"a\":1,\"b\":[true]}"}),
        stringAttr("x", {"{not json"}),        stringAttr("layer_names", {"dense", "dense_1"}),
        numberAttr("f", {0.5}, true),          numberAttr("v", {1, 2, 3}, false)};
    bool isJson = !json;
    QCOMPARE(AttributeModel::valueText(attrs[kind], &isJson), expected);
    QCOMPARE(isJson, json);
}

void tst_AttributeModel::jsonCellIsOneLine()
{
    AttributeModel model;
    model.setAttributes({stringAttr("model_config", {"{\"class_name\": \"Sequential\",\n "
                                                     "\"config\": {\"layers\": []}}"})});
    const QModelIndex value = model.index(0, AttributeModel::ValueColumn);
    QVERIFY(!value.data().toString().contains(QLatin1Char('\n')));
    QVERIFY(value.data(AttributeModel::IsJsonRole).toBool());
    const QString full = value.data(AttributeModel::FullTextRole).toString();
    QVERIFY(full.contains(QStringLiteral("\n  \"class_name\": \"Sequential\"")));
    QVERIFY(model.index(0, AttributeModel::TypeColumn).data().toString().contains("JSON"));
}

QTEST_GUILESS_MAIN(tst_AttributeModel)
#include "tst_AttributeModel.moc"
