#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QMenu;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ckpt {

class ProblemsModel;

// What the scans found wrong, one problem per row in plain words, with its
// file. Actions: "Repair" where the workspace says a repair is safe, "Repair
// All" for every such link, "Open Folder" for any problem, and for a leftover
// work/ "Move Aside…" (after a confirmation; nothing is ever deleted).
class ProblemsPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit ProblemsPanel(QWidget* parent = nullptr);

    void setModel(ProblemsModel* model);
    QTableView* view() const { return m_view; }
    QPushButton* repairButton() const { return m_repair; }
    QPushButton* repairAllButton() const { return m_repairAll; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* moveAsideButton() const { return m_moveAside; }
    // Source-model row of the current problem, -1 if none.
    int currentRow() const;
    // Runs with at least one repairable problem, in table order.
    QStringList repairableRuns() const;

signals:
    void repairRequested(int sourceRow);
    void repairAllRequested(const QStringList& roots);
    void moveWorkAsideRequested(const QString& root); // confirmed by the user already
    void showRequested(const QString& root, int epoch);

private:
    void updateButtons();
    void openFolder();
    void confirmMoveAside();
    QString folderOf(int sourceRow) const;

    ProblemsModel* m_model = nullptr;
    bool m_fitPending = false;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_summary;
    QPushButton* m_repair;
    QPushButton* m_repairAll;
    QPushButton* m_open;
    QPushButton* m_moveAside;
    QMenu* m_menu;
};

} // namespace ckpt
