#pragma once

#include "hdf5/TensorHistogram.h"

#include <QDialog>

class QCheckBox;
class QLabel;

namespace ckpt {

class JobRunner;
class TensorHistogramPlot;

// Both sides of one tensor of a weights comparison, their histograms overlaid
// on the same bins (computed in the background).
class TensorOverlayDialog final : public QDialog
{
    Q_OBJECT
public:
    struct Side
    {
        QString label; // "RUN000 epoch 5"
        QString file;  // the HDF5 file
        QString path;  // dataset path in it
    };

    TensorOverlayDialog(Side a, Side b, QWidget* parent = nullptr);
    ~TensorOverlayDialog() override;

    TensorHistogramPlot* histogram() const { return m_histogram; }

signals:
    void ready(bool ok);

private:
    void showResult(Result<std::pair<TensorHistogram::Tensor, TensorHistogram::Tensor>> result);

    Side m_a;
    Side m_b;
    JobRunner* m_job;
    QLabel* m_summary;
    TensorHistogramPlot* m_histogram;
    QCheckBox* m_logY;
};

} // namespace ckpt
