// The sidebar's badges: a run never verified must not look like a healthy
// one, by text, symbol and style as well as colour.
#include "TextRecorder.h"
#include "models/ChecksumState.h"
#include "models/ModelRoles.h"
#include "models/RunTreeModel.h"
#include "sidebar/RunBadgeDelegate.h"

#include <QPainter>
#include <QStandardItemModel>
#include <QTest>
#include <QTreeView>

using namespace ckpt;
using test::TextRecorder;

Q_DECLARE_METATYPE(ckpt::ChecksumState)
Q_DECLARE_METATYPE(ckpt::RunTreeModel::NodeKind)

class tst_RunBadgeDelegate : public QObject
{
    Q_OBJECT
private slots:
    void checksumBadgeSaysWhatIsKnown_data();
    void checksumBadgeSaysWhatIsKnown();
};

void tst_RunBadgeDelegate::checksumBadgeSaysWhatIsKnown_data()
{
    QTest::addColumn<RunTreeModel::NodeKind>("kind");
    QTest::addColumn<ChecksumState>("state");
    QTest::addColumn<int>("width");
    QTest::addColumn<QString>("painted"); // what follows the name
    QTest::addColumn<bool>("italic");

    const auto run = RunTreeModel::NodeKind::Run;
    QTest::newRow("never verified")
        << run << ChecksumState::Unknown << 500 << "? not verified" << true;
    // Narrow: the name keeps its room, the badge shrinks to its symbol rather than vanish.
    QTest::newRow("never verified, narrow") << run << ChecksumState::Unknown << 170 << "?" << true;
    QTest::newRow("verified ok") << run << ChecksumState::Ok << 500 << "✓ ok" << false;
    QTest::newRow("mismatch") << run << ChecksumState::Mismatch << 500 << "MISMATCH" << false;
    QTest::newRow("no checksum") << run << ChecksumState::NoChecksum << 500 << "no checksum"
                                 << false;
    // A folder raises only alarms: no "not verified" on every folder row.
    QTest::newRow("folder never verified")
        << RunTreeModel::NodeKind::Folder << ChecksumState::Unknown << 500 << "" << false;
}

void tst_RunBadgeDelegate::checksumBadgeSaysWhatIsKnown()
{
    QFETCH(RunTreeModel::NodeKind, kind);
    QFETCH(ChecksumState, state);
    QFETCH(int, width);
    QFETCH(QString, painted);
    QFETCH(bool, italic);

    const QString name = QStringLiteral("EXP000/RUN000");
    QStandardItemModel model;
    auto* item = new QStandardItem(name);
    item->setData(static_cast<int>(kind), roles::NodeKindRole);
    item->setData(static_cast<int>(state), roles::ChecksumStateRole);
    model.appendRow(item);
    QTreeView view;
    view.setModel(&model);
    RunBadgeDelegate delegate;

    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    option.rect = QRect(0, 0, width, 26);
    option.state = QStyle::State_Enabled;
    // As a QTreeView (rows selected whole) sets it: the text may use the whole row.
    option.showDecorationSelected = true;
    TextRecorder recorder({width, 26});
    {
        QPainter painter(&recorder);
        delegate.paint(&painter, option, model.index(0, 0));
    }
    const QString all = recorder.joined();
    QVERIFY2(all.startsWith(name), qPrintable(all));
    QCOMPARE(all.mid(name.size()), painted);
    if (!painted.isEmpty()) {
        const auto font = recorder.fontOf(painted.right(1));
        QVERIFY(font);
        QCOMPARE(font->italic(), italic);
    }
}

QTEST_MAIN(tst_RunBadgeDelegate)
#include "tst_RunBadgeDelegate.moc"
