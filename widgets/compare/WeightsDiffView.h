#pragma once

#include "common/Progress.h"
#include "hdf5/TensorDiff.h"

#include <QString>
#include <QTemporaryDir>
#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace ckpt {

class JobRunner;
class LayerRankingModel;
class TensorDiffFilterModel;
class TensorDiffModel;
class TensorOverlayDialog;

// The "Weights" tab of the compare view: the tensors of two model files side
// by side. TensorDiff runs in the background (progress bar, Cancel); the tensor
// table sorts on any column, draws the relative change as a log-scaled bar and
// tints tensors with NaN/Inf red; the layer table ranks layers by how far they
// moved. Status check boxes filter the tensors; double-clicking one opens both
// sides' histograms overlaid.
class WeightsDiffView final : public QWidget
{
    Q_OBJECT
public:
    explicit WeightsDiffView(QWidget* parent = nullptr);
    ~WeightsDiffView() override;

    // Starts comparing; labels name the sides ("RUN000 epoch 5").
    void compare(const QString& modelA, const QString& labelA, const QString& modelB,
                 const QString& labelB);
    // The same view of a diff computed elsewhere (a far ckpt's, through
    // RemoteOperations::diffWork), run in the background with the same progress,
    // Cancel and stale-result rules; `host` holds the files (histograms of its
    // tensors are not offered: their values stay there).
    using DiffWork = std::function<Result<ModelDiff>(const Progress&)>;
    void compareWith(DiffWork work, const QString& labelA, const QString& labelB,
                     const QString& host);
    void cancel();
    void clear(const QString& message = {});
    bool isRunning() const;

    const ModelDiff* diff() const { return m_diff ? &*m_diff : nullptr; }
    QTableView* tensorView() const { return m_tensors; }
    QTableView* layerView() const { return m_layers; }
    TensorDiffModel* tensorModel() const { return m_tensorModel; }
    TensorDiffFilterModel* filterModel() const { return m_filter; }
    QCheckBox* statusFilter(int filter) const;
    QCheckBox* optimizerBox() const { return m_optimizerBox; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* summary() const { return m_summary; }
    // The last dialog opened by a double-click (nullptr when none is open).
    TensorOverlayDialog* overlayDialog() const { return m_overlay; }

signals:
    void finished(bool ok);

private:
    struct Outcome
    {
        Result<ModelDiff> diff;
        std::string hdf5A;
        std::string hdf5B;
    };
    void start(std::function<Outcome(const Progress&)> work, const QString& busyText);
    void showOutcome(Outcome outcome);
    void openOverlay(const QModelIndex& proxyIndex);
    void updateSummary();
    void showLayers();
    void setResultsEnabled(bool enabled);

    QString m_labelA;
    QString m_labelB;
    QString m_host; // the far host of a remote comparison
    std::optional<ModelDiff> m_diff;
    QString m_hdf5A;
    QString m_hdf5B;
    QTemporaryDir m_scratch;
    int m_runs = 0;
    JobRunner* m_job;
    TensorDiffModel* m_tensorModel;
    TensorDiffFilterModel* m_filter;
    LayerRankingModel* m_layerModel;
    QLabel* m_summary;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QCheckBox* m_optimizerBox;
    QList<QCheckBox*> m_statusBoxes;
    QTableView* m_tensors;
    QTableView* m_layers;
    TensorOverlayDialog* m_overlay = nullptr;
};

} // namespace ckpt
