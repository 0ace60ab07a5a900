#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ckpt {

class ProblemsModel;

// What the scans found wrong, one problem per row with its file. "Repair"
// is offered only where the workspace says a repair is safe.
class ProblemsPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit ProblemsPanel(QWidget* parent = nullptr);

    void setModel(ProblemsModel* model);
    QTableView* view() const { return m_view; }
    QPushButton* repairButton() const { return m_repair; }
    // Source-model row of the current problem, -1 if none.
    int currentRow() const;

signals:
    void repairRequested(int sourceRow);
    void showRequested(const QString& root, int epoch);

private:
    void updateButtons();

    ProblemsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_summary;
    QPushButton* m_repair;
};

} // namespace ckpt
