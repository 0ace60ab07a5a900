#pragma once

#include "hdf5/TensorHistogram.h"
#include "modelfile/ModelOverview.h"
#include "remote/RemoteRecords.h"

#include <QString>
#include <QTemporaryDir>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeView;
class QTreeWidget;

namespace ckpt {

class AttributeModel;
class H5TreeModel;
class JobRunner;
class TensorHistogramPlot;

// Looks inside one model file: the header names the format (HDF5, Keras 3
// archive, torch archive, MindSpore, ...), Keras version, layer and parameter
// counts; the HDF5 object tree on the left (a torch, MindSpore, Caffe2 or
// Synalinks file lists its tensors, another zip its entries); on
// the right the selected object's attributes (JSON pretty-printed), and for a
// numeric dataset its statistics and value histogram, computed in the background.
class ModelInspector final : public QWidget
{
    Q_OBJECT
public:
    explicit ModelInspector(QWidget* parent = nullptr);
    ~ModelInspector() override;

    // Loads `path` in the background; loaded() tells when it is shown.
    void open(const QString& path);
    QString path() const { return m_path; }
    const ModelOverview* overview() const { return m_overview ? &*m_overview : nullptr; }

    // A model file on another host, read there in the background
    // (RemoteOperations::inspectWork); loaded() tells when it is shown.
    using InspectWork = std::function<Result<RemoteInspect>(const Progress&)>;
    void openRemote(InspectWork work, const QString& path, const QString& host);
    // An inspection the far `ckpt inspect` already made, shown as it is: the
    // tensor list and each tensor's statistics. No histogram (the values stay
    // on `host`) and no HDF5 attributes (not in its answer); each view says so.
    void showInspection(const RemoteInspect& inspection, const QString& host);
    const RemoteInspect* remoteInspection() const { return m_remote ? &*m_remote : nullptr; }

    // Selects the object at `objectPath` in the tree ("/model_weights/dense").
    bool selectObject(const QString& objectPath);
    // The shown value of a statistic ("min", "max", "mean", "std", "l2", "nan",
    // "inf", "zeros", "count"), empty while none is shown.
    QString statistic(const QString& name) const;

    QTreeView* treeView() const { return m_tree; }
    QTableView* attributeView() const { return m_attributes; }
    QPlainTextEdit* attributeText() const { return m_attributeText; }
    QTabWidget* tabs() const { return m_tabs; }
    TensorHistogramPlot* histogram() const { return m_histogram; }
    QLabel* header() const { return m_header; }

    static bool isModelFile(const QString& path);

signals:
    void loaded(bool ok);
    // Statistics and histogram of `datasetPath` are shown.
    void statisticsReady(const QString& datasetPath);

private:
    void showOverview(Result<ModelOverview> overview);
    void showHeader();
    void showZipListing();
    void showTensorList();
    // Fits the filled tensor list's columns and shows it (local and remote alike).
    void presentTensorList();
    void onTensorChanged();
    // Forgets what was shown (local or remote); `path` is the next file.
    void reset(const QString& path);
    // ModelInspectorRemote.cpp
    void showRemoteTensor(const QString& name);
    void onCurrentChanged();
    void showAttributeText();
    void showTensor(Result<TensorHistogram::Tensor> tensor);
    void clearStatistics(const QString& message);
    QWidget* buildStatistics();

    QString m_path;
    std::optional<ModelOverview> m_overview;
    std::optional<RemoteInspect> m_remote;
    QString m_host;
    QTemporaryDir m_scratch;
    int m_opened = 0;
    JobRunner* m_openJob;
    JobRunner* m_tensorJob;
    H5TreeModel* m_treeModel;
    AttributeModel* m_attributeModel;
    QLabel* m_header;
    QStackedWidget* m_left;
    QTreeView* m_tree;
    QTreeWidget* m_zipList;
    QTreeWidget* m_tensorList; // tensors of a non-HDF5 file (torch, MindSpore, ...)
    QTabWidget* m_tabs;
    QTableView* m_attributes;
    QPlainTextEdit* m_attributeText;
    QLabel* m_statsTitle;
    std::map<QString, QLabel*> m_stats;
    QProgressBar* m_tensorProgress;
    TensorHistogramPlot* m_histogram;
    QCheckBox* m_logY;
};

} // namespace ckpt
