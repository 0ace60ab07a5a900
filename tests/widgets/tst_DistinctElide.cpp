#include "common/DistinctElide.h"

#include <QApplication>
#include <QFontMetrics>
#include <QTest>

using namespace ckpt;

class tst_DistinctElide : public QObject
{
    Q_OBJECT
private slots:
    void keepsWhatTellsSiblingsApart_data();
    void keepsWhatTellsSiblingsApart();
    void fitsRealFontMetrics();
};

namespace {
// One unit per character: the cases read as character counts.
int chars(const QString& text)
{
    return static_cast<int>(text.size());
}
} // namespace

void tst_DistinctElide::keepsWhatTellsSiblingsApart_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("siblings");
    QTest::addColumn<int>("width");
    QTest::addColumn<QString>("expected");

    const QStringList sweep{"RUN001-fork-e006-learning_rate-0.0003",
                            "RUN001-fork-e006-learning_rate-0.001",
                            "RUN001-fork-e006-learning_rate-0.003"};
    QTest::newRow("fits: unchanged") << sweep[1] << sweep << 40 << sweep[1];
    QTest::newRow("sweep value kept whole") << sweep[0] << sweep << 20 << "RUN001-fork-e…0.0003";
    QTest::newRow("very narrow: the value, elided at its end") << sweep[0] << sweep << 5 << "…0.0…";
    QTest::newRow("differs in the middle")
        << "RUN001-fork-e006-fork-e011"
        << QStringList{"RUN001-fork-e006-fork-e011", "RUN001-fork-e009-fork-e011"} << 22
        << "RUN001-…e006-fork-e011";
    QTest::newRow("no siblings: end elided")
        << "averyveryverylongname" << QStringList{} << 8 << "averyve…";
    QTest::newRow("itself listed twice counts as a sibling")
        << "RUN-a" << QStringList{"RUN-a", "RUN-a"} << 4 << "RU…a";
}

void tst_DistinctElide::keepsWhatTellsSiblingsApart()
{
    QFETCH(QString, name);
    QFETCH(QStringList, siblings);
    QFETCH(int, width);
    QFETCH(QString, expected);
    const QString got = DistinctElide::elide(name, siblings, width, chars);
    QCOMPARE(got, expected);
}

void tst_DistinctElide::fitsRealFontMetrics()
{
    const QFontMetrics fm(QApplication::font());
    const QStringList sweep{"RUN001-fork-e006-learning_rate-0.0003",
                            "RUN001-fork-e006-learning_rate-0.001"};
    for (int width : {60, 90, 120, 200}) {
        const QString got = DistinctElide::elide(sweep[0], sweep, width, fm);
        QVERIFY2(fm.horizontalAdvance(got) <= width || got.size() <= 3, qPrintable(got));
        if (fm.horizontalAdvance(QStringLiteral("…0.0003")) <= width)
            QVERIFY2(got.endsWith("0.0003"), qPrintable(got));
    }
}

QTEST_MAIN(tst_DistinctElide)
#include "tst_DistinctElide.moc"
