#pragma once

#include "models/ChecksumState.h"

#include <QAbstractItemModel>
#include <QString>

#include <optional>
#include <vector>

namespace ckpt {

// What the sidebar shows about one run: computed by the workspace from the
// loaded Run, so the model never touches the disk.
struct RunSummary
{
    QString root;   // absolute path of the run (the folder holding epochs/)
    QString folder; // the opened folder it was found under
    int epochs = 0;
    quint64 diskBytes = 0;
    int problems = 0;
    bool live = false;
    ChecksumState checksum = ChecksumState::Unknown;
    std::optional<int> lastEpoch;
    std::optional<int> bestEpoch;
    QString host;     // a remote run's host ("user@host:port"), empty for a local run
    QString stale;    // why what is shown may not be current ("reconnecting"), empty when it is
    QString staleWhy; // the whole message: what happened and what to do
};

// Opened folders at the top level, their runs below (folder > run), sorted by
// name. Runs are named by their path relative to the folder.
class RunTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        EpochsColumn,
        DiskColumn,
        ColumnCount
    };
    enum class NodeKind
    {
        Folder,
        Run
    };

    explicit RunTreeModel(QObject* parent = nullptr);

    void addFolder(const QString& folder);
    void removeFolder(const QString& folder);
    // Marks `folder` as remote on `host`, with its connection: `stale` a short
    // word while it is not connected (empty when it is), `message` the detail.
    void setFolderRemote(const QString& folder, const QString& host, const QString& stale,
                         const QString& message);
    void clear();
    // Adds the run under its folder (adding the folder if needed) or updates it.
    void upsertRun(const RunSummary& summary);
    void removeRun(const QString& root);

    QStringList folders() const;
    QStringList runRoots() const;
    const RunSummary* summary(const QString& root) const;
    QModelIndex indexOfRun(const QString& root, int column = 0) const;
    QModelIndex indexOfFolder(const QString& folder) const;
    static QString displayName(const QString& folder, const QString& root);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    struct Folder
    {
        QString path;
        std::vector<RunSummary> runs; // sorted by root
        QString host;                 // remote folders only
        QString stale;
        QString message;
    };

    int folderRow(const QString& folder) const;
    QVariant folderData(const Folder& folder, int column, int role) const;
    QVariant runData(const Folder& folder, const RunSummary& run, int column, int role) const;

    std::vector<Folder> m_folders;
};

} // namespace ckpt
