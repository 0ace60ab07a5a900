// The epoch table's checksum column: "never verified" reads differently from
// "ok" by text, symbol and style as well as colour.
#include "TextRecorder.h"
#include "models/ChecksumState.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "table/EpochBadgeDelegate.h"

#include <QPainter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace ckpt;
using test::TextRecorder;

Q_DECLARE_METATYPE(ckpt::ChecksumState)

class tst_EpochBadgeDelegate : public QObject
{
    Q_OBJECT
private slots:
    void checksumCellSaysWhatIsKnown_data();
    void checksumCellSaysWhatIsKnown();
    void columnFitsTheBadge();

private:
    // One checksum cell, as EpochTableModel presents it.
    static void fill(QStandardItemModel& model, ChecksumState state);
};

void tst_EpochBadgeDelegate::fill(QStandardItemModel& model, ChecksumState state)
{
    model.setRowCount(1);
    model.setColumnCount(1);
    model.setHeaderData(0, Qt::Horizontal, static_cast<int>(EpochTableModel::ColumnKind::Checksum),
                        roles::ColumnKindRole);
    model.setData(model.index(0, 0), checksumStateLabel(state));
    model.setData(model.index(0, 0), static_cast<int>(state), roles::ChecksumStateRole);
}

void tst_EpochBadgeDelegate::checksumCellSaysWhatIsKnown_data()
{
    QTest::addColumn<ChecksumState>("state");
    QTest::addColumn<QString>("painted");
    QTest::addColumn<bool>("italic");
    QTest::addColumn<bool>("bold");

    QTest::newRow("never verified") << ChecksumState::Unknown << "? not verified" << true << false;
    QTest::newRow("verified ok") << ChecksumState::Ok << "✓ ok" << false << true;
    QTest::newRow("mismatch") << ChecksumState::Mismatch << "MISMATCH" << false << true;
    QTest::newRow("no checksum") << ChecksumState::NoChecksum << "no checksum" << false << false;
}

void tst_EpochBadgeDelegate::checksumCellSaysWhatIsKnown()
{
    QFETCH(ChecksumState, state);
    QFETCH(QString, painted);
    QFETCH(bool, italic);
    QFETCH(bool, bold);

    QStandardItemModel model;
    fill(model, state);
    QTableView view;
    view.setModel(&model);
    EpochBadgeDelegate delegate(nullptr, this);
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    option.rect = QRect(0, 0, 160, 24);
    option.state = QStyle::State_Enabled;
    TextRecorder recorder({160, 24});
    {
        QPainter painter(&recorder);
        delegate.paint(&painter, option, model.index(0, 0));
    }
    QCOMPARE(recorder.joined(), painted);
    const auto font = recorder.fontOf(painted.right(1));
    QVERIFY(font);
    QCOMPARE(font->italic(), italic);
    QCOMPARE(font->bold(), bold);
}

void tst_EpochBadgeDelegate::columnFitsTheBadge()
{
    // Fitting the column to its contents leaves room for the whole badge,
    // symbol included: a cut badge would drop to "?" or to nothing.
    QStandardItemModel model;
    fill(model, ChecksumState::Unknown);
    QTableView view;
    view.setModel(&model);
    EpochBadgeDelegate delegate(nullptr, this);
    view.setItemDelegate(&delegate);
    view.resizeColumnsToContents();
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    option.rect = QRect(0, 0, view.columnWidth(0), 24);
    option.state = QStyle::State_Enabled;
    TextRecorder recorder({view.columnWidth(0), 24});
    {
        QPainter painter(&recorder);
        delegate.paint(&painter, option, model.index(0, 0));
    }
    QCOMPARE(recorder.joined(), QStringLiteral("? not verified"));
    view.setItemDelegate(nullptr);
}

QTEST_MAIN(tst_EpochBadgeDelegate)
#include "tst_EpochBadgeDelegate.moc"
