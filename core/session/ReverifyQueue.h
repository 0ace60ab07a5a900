#pragma once

#include "models/ChecksumState.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <map>
#include <set>
#include <vector>

namespace ckpt {

// Model files that were verified and then changed on disk. A file whose
// verdict stood must not fall back to a quiet "not verified": it shows
// "changed since verified" and is verified again, alone, as soon as it has
// settled (no change for a moment: a trainer writes the model, then its
// record) and no other verification runs. Workspace wires it to VerifySession.
class ReverifyQueue final : public QObject
{
    Q_OBJECT
public:
    explicit ReverifyQueue(QObject* parent = nullptr);

    // Whether a state is the verdict of a verification (ok, mismatch, ...).
    static bool isVerdict(ChecksumState state);

    // The file of `epoch` changed after a verdict; restarts the settle time.
    void add(const QString& root, int epoch);
    void forget(const QString& root);
    bool hasWaiting() const { return !m_waiting.empty(); }
    // The waiting epochs, now under verification (answers() tells their verdicts).
    std::map<QString, std::vector<int>> take();
    // Whether this verdict answers a re-verification (asked once per epoch).
    bool answers(const QString& root, int epoch);
    void setSettleMs(int ms) { m_timer.setInterval(ms); }

signals:
    // Settled epochs wait; take() them when no verification runs.
    void due();

private:
    QTimer m_timer;
    std::map<QString, std::set<int>> m_waiting;
    std::map<QString, std::set<int>> m_inFlight;
};

} // namespace ckpt
