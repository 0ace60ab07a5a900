#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace ckpt {

class CompareModel;

// Two epochs side by side. The "Metadata" tab lists ckpt-info fields and
// metrics with differences highlighted; the "Weights" tab is reserved for the
// tensor-by-tensor comparison of the model files (a separate piece of work).
class CompareView final : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    void setModel(CompareModel* model);
    QTabWidget* tabs() const { return m_tabs; }
    // The page the weights comparison goes into: replace its layout's content.
    QWidget* weightsPage() const { return m_weightsPage; }
    QTableView* table() const { return m_table; }

private:
    void updateSummary();

    CompareModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QTabWidget* m_tabs;
    QTableView* m_table;
    QLabel* m_summary;
    QCheckBox* m_onlyDifferences;
    QWidget* m_weightsPage;
};

} // namespace ckpt
