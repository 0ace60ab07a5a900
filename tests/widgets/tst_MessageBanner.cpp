#include "common/MessageBanner.h"

#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QVBoxLayout>

using namespace ckpt;

// The inline message banner, driven by real clicks and keys.
class tst_MessageBanner : public QObject
{
    Q_OBJECT
private slots:
    void buttonRunsItsActionAndCloses();
    void escapeAndCloseButtonDismiss();
    void onlyItsOwnTopicDismissesIt();
    void aButtonMayShowTheNextMessage();

private:
    struct Host
    {
        QWidget window;
        MessageBanner* banner = new MessageBanner(&window);
        Host()
        {
            auto* layout = new QVBoxLayout(&window);
            layout->addWidget(banner);
            layout->addStretch(1);
            window.resize(600, 200);
            window.show();
        }
    };
};

void tst_MessageBanner::buttonRunsItsActionAndCloses()
{
    Host h;
    QVERIFY(QTest::qWaitForWindowExposed(&h.window));
    QVERIFY(!h.banner->isVisible());
    int retried = 0, closed = 0;
    h.banner->showMessage(MessageBanner::Kind::Error, QStringLiteral("Cannot open x"),
                          {{QStringLiteral("Retry Now"), [&] { ++retried; }},
                           {QStringLiteral("Close Folder"), [&] { ++closed; }}},
                          QStringLiteral("x"));
    QVERIFY(h.banner->isVisible());
    QCOMPARE(h.banner->text(), QStringLiteral("Cannot open x"));
    QCOMPARE(h.banner->buttons().size(), qsizetype(2));
    QCOMPARE(h.banner->buttons().at(0)->text(), QStringLiteral("Retry Now"));
    QSignalSpy dismissed(h.banner, &MessageBanner::dismissed);
    QTest::mouseClick(h.banner->buttons().at(0), Qt::LeftButton);
    QCOMPARE(retried, 1);
    QCOMPARE(closed, 0);
    QVERIFY(!h.banner->isVisible());
    QCOMPARE(dismissed.size(), 1);
}

void tst_MessageBanner::escapeAndCloseButtonDismiss()
{
    Host h;
    QVERIFY(QTest::qWaitForWindowExposed(&h.window));
    h.banner->showMessage(MessageBanner::Kind::Information, QStringLiteral("note"));
    h.banner->setFocus();
    QTest::keyClick(h.banner, Qt::Key_Escape);
    QVERIFY(!h.banner->isVisible());
    h.banner->showMessage(MessageBanner::Kind::Information, QStringLiteral("again"));
    QVERIFY(h.banner->isVisible());
    QTest::mouseClick(h.banner->closeButton(), Qt::LeftButton);
    QVERIFY(!h.banner->isVisible());
}

void tst_MessageBanner::onlyItsOwnTopicDismissesIt()
{
    Host h;
    QVERIFY(QTest::qWaitForWindowExposed(&h.window));
    h.banner->showMessage(MessageBanner::Kind::Error, QStringLiteral("a failed"), {},
                          QStringLiteral("a"));
    h.banner->dismissTopic(QStringLiteral("b"));
    QVERIFY(h.banner->isVisible());
    h.banner->dismissTopic(QStringLiteral("a"));
    QVERIFY(!h.banner->isVisible());
}

void tst_MessageBanner::aButtonMayShowTheNextMessage()
{
    Host h;
    QVERIFY(QTest::qWaitForWindowExposed(&h.window));
    const auto next = [&] {
        h.banner->showMessage(MessageBanner::Kind::Error, QStringLiteral("still failing"),
                              {{QStringLiteral("Retry Now"), {}}});
    };
    h.banner->showMessage(MessageBanner::Kind::Error, QStringLiteral("failing"),
                          {{QStringLiteral("Retry Now"), next}});
    QTest::mouseClick(h.banner->buttons().at(0), Qt::LeftButton);
    QVERIFY(h.banner->isVisible());
    QCOMPARE(h.banner->text(), QStringLiteral("still failing"));
    QCOMPARE(h.banner->buttons().size(), qsizetype(1));
    QTest::qWait(0); // the old buttons are deleted later, never under their own click
    QTest::mouseClick(h.banner->buttons().at(0), Qt::LeftButton);
    QVERIFY(!h.banner->isVisible());
}

QTEST_MAIN(tst_MessageBanner)
#include "tst_MessageBanner.moc"
