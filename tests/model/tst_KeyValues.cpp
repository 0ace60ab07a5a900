#include "model/KeyValues.h"

#include <QTest>

#include <string>
#include <thread>
#include <vector>

using namespace ckpt;

class tst_KeyValues : public QObject
{
    Q_OBJECT

private slots:
    void keepsInsertionOrderAndReplacesInPlace();
    void copiesShareUntilOneChanges();
    void setWithAViewIntoItself();
    void clearAndShrink();
    void emptyValueIntoEmptyMap();
    void nulInKeyOrValue();
    void copiesAcrossThreads();
    void canonicalUntilSet();
    void clearKeepingRoom();
};

namespace {
std::string joined(const KeyValues& kv)
{
    std::string out;
    for (const auto& [k, v] : kv)
        out.append(k).append("=").append(v).append(";");
    return out;
}
} // namespace

void tst_KeyValues::keepsInsertionOrderAndReplacesInPlace()
{
    KeyValues kv;
    QVERIFY(kv.empty());
    kv.set("epoch", "12");
    kv.set("save_best_metric", "\"val_loss\"");
    kv.set("best_metric_last", "Infinity");
    QCOMPARE(kv.size(), std::size_t(3));
    kv.set("save_best_metric", "\"loss\"");
    QCOMPARE(joined(kv),
             std::string("epoch=12;save_best_metric=\"loss\";best_metric_last=Infinity;"));
    QCOMPARE(kv.text("save_best_metric").value(), std::string("loss"));
    QVERIFY(std::isinf(kv.number("best_metric_last").value()));
    QVERIFY(!kv.get("missing"));
}

void tst_KeyValues::copiesShareUntilOneChanges()
{
    KeyValues a;
    a.set("k", "v");
    KeyValues b = a;
    QVERIFY(a == b);
    // Shared: both views point at the same bytes.
    QCOMPARE(a.get("k")->data(), b.get("k")->data());
    b.set("k2", "w");
    QCOMPARE(joined(a), std::string("k=v;"));
    QCOMPARE(joined(b), std::string("k=v;k2=w;"));
    QVERIFY(!(a == b));
    b.set("k", "changed");
    QCOMPARE(joined(a), std::string("k=v;"));
    QCOMPARE(joined(b), std::string("k=changed;k2=w;"));
    KeyValues c;
    c = std::move(b);
    QVERIFY(b.empty());
    QCOMPARE(joined(c), std::string("k=changed;k2=w;"));
    const KeyValues& same = c;
    c = same; // self-assignment keeps the content
    QCOMPARE(joined(c), std::string("k=changed;k2=w;"));
}

void tst_KeyValues::setWithAViewIntoItself()
{
    KeyValues kv;
    kv.set("a", std::string(40, 'x'));
    // Growing past the buffer's room while key and value point into it.
    for (int i = 0; i < 6; ++i) {
        const std::string_view value = *kv.get("a");
        kv.set("copy" + std::to_string(i), value);
    }
    for (int i = 0; i < 6; ++i)
        QCOMPARE(std::string(*kv.get("copy" + std::to_string(i))), std::string(40, 'x'));
    const std::string_view key = kv.begin()->first;
    kv.set(key, "short");
    QCOMPARE(std::string(*kv.get("a")), std::string("short"));
}

// Found by fuzz_lightning_hparams (":: :"): the first set() copied the empty
// buffer and a default string_view with memcpy from null, undefined behaviour
// the ASan+UBSan suite reports here.
void tst_KeyValues::emptyValueIntoEmptyMap()
{
    KeyValues kv;
    kv.set("k", std::string_view{});
    kv.set("", "v");
    QCOMPARE(kv.size(), std::size_t(2));
    QCOMPARE(std::string(*kv.get("k")), std::string());
    QCOMPARE(joined(kv), std::string("k=;=v;"));
}

// Found by fuzz_lightning_hparams: a NUL byte in a key split the packed entry
// and every later lookup looped forever.
void tst_KeyValues::nulInKeyOrValue()
{
    using namespace std::string_view_literals;
    KeyValues kv;
    kv.set("a\0b"sv, "x\0"sv);
    kv.set("c", "1");
    kv.set("\0"sv, "\0\0"sv);
    QCOMPARE(kv.size(), std::size_t(3));
    QCOMPARE(std::string(*kv.get("a\xe2\x90\x80"
                                 "b")),
             std::string("x\xe2\x90\x80"));
    QCOMPARE(std::string(*kv.get("c")), std::string("1"));
    QVERIFY(kv.contains("\xe2\x90\x80"));
    QVERIFY(!kv.contains("missing"));
}

void tst_KeyValues::clearAndShrink()
{
    KeyValues kv;
    kv.set("x", "1");
    KeyValues copy = kv;
    kv.shrinkToFit();
    kv.clear();
    QVERIFY(kv.empty());
    QCOMPARE(joined(copy), std::string("x=1;"));
    copy.shrinkToFit();
    QCOMPARE(joined(copy), std::string("x=1;"));
    QVERIFY(KeyValues() == KeyValues());
}

// The fast reader's promise that the values are already as a writer puts them:
// kept by copies and shrinking, ended by any change (a copy that changes ends
// only its own).
void tst_KeyValues::canonicalUntilSet()
{
    const KeyValues::Entry entries[] = {{"epoch", "3"}, {"loss", "0.5"}};
    KeyValues kv;
    kv.assignDistinct(entries, 2);
    QVERIFY(!kv.canonical());
    kv.assignDistinct(entries, 2, true);
    QVERIFY(kv.canonical());
    kv.shrinkToFit();
    QVERIFY(kv.canonical());
    KeyValues copy = kv;
    copy.set("note", "1E5");
    QVERIFY(!copy.canonical());
    QVERIFY(kv.canonical());
    kv.set("loss", "0.50");
    QVERIFY(!kv.canonical());
    QCOMPARE(joined(kv), std::string("epoch=3;loss=0.50;"));
    QVERIFY(!KeyValues().canonical());
}

// A recycled epoch's record: emptied, then written over in its own buffer;
// a copy taken before keeps what it read.
void tst_KeyValues::clearKeepingRoom()
{
    const KeyValues::Entry long3[] = {{"epoch", "3"}, {"loss", "0.5"}, {"note", "\"a\""}};
    const KeyValues::Entry short1[] = {{"x", "1"}};
    KeyValues kv;
    kv.assignDistinct(long3, 3, true);
    const KeyValues before = kv;
    kv.clearKeepingRoom(); // shared: let go of, not written over
    QVERIFY(kv.empty());
    QVERIFY(!kv.canonical());
    QCOMPARE(kv.size(), std::size_t(0));
    QVERIFY(kv.begin() == kv.end());
    QVERIFY(kv == KeyValues());
    QCOMPARE(joined(before), std::string("epoch=3;loss=0.5;note=\"a\";"));
    QVERIFY(before.canonical());

    kv.assignDistinct(long3, 3, true);
    kv.clearKeepingRoom(); // its own: emptied in place
    QVERIFY(kv.empty());
    QVERIFY(!kv.canonical());
    QVERIFY(!kv.get("epoch"));
    kv.assignDistinct(short1, 1);
    QCOMPARE(joined(kv), std::string("x=1;"));
    QVERIFY(!kv.canonical());
    kv.clearKeepingRoom();
    kv.assignDistinct(long3, 3, true); // larger than the room: a new buffer
    QCOMPARE(joined(kv), std::string("epoch=3;loss=0.5;note=\"a\";"));
    QVERIFY(kv.canonical());
    kv.clearKeepingRoom();
    kv.shrinkToFit(); // an emptied buffer is let go of
    QVERIFY(kv.empty());
    kv.set("y", "2");
    QCOMPARE(joined(kv), std::string("y=2;"));
}

void tst_KeyValues::copiesAcrossThreads()
{
    // The watcher thread and the window hold copies of the same epochs.
    KeyValues source;
    source.set("model_file", "\"model.h5\"");
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([source] {
            for (int i = 0; i < 20000; ++i) {
                KeyValues mine = source;
                if (i % 3 == 0)
                    mine.set("i", std::to_string(i));
            }
        });
    for (auto& t : threads)
        t.join();
    QCOMPARE(joined(source), std::string("model_file=\"model.h5\";"));
}

QTEST_GUILESS_MAIN(tst_KeyValues)
#include "tst_KeyValues.moc"
