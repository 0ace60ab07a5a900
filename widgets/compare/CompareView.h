#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace ckpt {

class CompareModel;
class WeightsDiffView;

// Two epochs side by side. The "Metadata" tab lists ckpt-info fields and
// metrics with differences highlighted; the "Weights" tab is reserved for the
// tensor-by-tensor comparison of the model files (WeightsDiffView), started
// when the tab is first shown for a pair: reading two large models is not free.
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
    WeightsDiffView* weightsView() const { return m_weights; }
    // The model files of the two compared epochs; an empty path clears the tab.
    void setModelFiles(const QString& modelA, const QString& labelA, const QString& modelB,
                       const QString& labelB);

private:
    void updateSummary();
    void startWeightsIfShown();

    CompareModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QTabWidget* m_tabs;
    QTableView* m_table;
    QLabel* m_summary;
    QCheckBox* m_onlyDifferences;
    QWidget* m_weightsPage;
    WeightsDiffView* m_weights;
    QStringList m_pendingWeights; // modelA, labelA, modelB, labelB
};

} // namespace ckpt
