#pragma once

#include "common/Progress.h"
#include "hdf5/TensorDiff.h"

#include <QWidget>

#include <functional>

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
    // The weights of two remote epochs, compared on `host` (WeightsDiffView::compareWith).
    void setRemoteWeights(std::function<Result<ModelDiff>(const Progress&)> work,
                          const QString& labelA, const QString& labelB, const QString& host);
    // No weights comparison for this pair; `why` says so in the tab.
    void setWeightsUnavailable(const QString& why);

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
    std::function<void()> m_pendingWeights; // started when the tab is shown
};

} // namespace ckpt
