#pragma once

#include <Qt>

namespace ckpt {

// Custom roles shared by the item models and the widgets that draw them. The
// models stay QtCore-only, so colours and badges are decided by delegates from
// these roles rather than by Qt::BackgroundRole.
namespace roles {
enum : int
{
    SortRole = Qt::UserRole + 1, // numeric value for sorting (double, qint64) or text
    RunRootRole,                 // QString: absolute root of the run the item belongs to
    EpochRole,                   // int: epoch number (epoch table, problems)
    ChecksumStateRole,           // int: ckpt::ChecksumState
    LiveRole,                    // bool: a trainer is writing the run now
    ProblemCountRole,            // int
    DiskBytesRole,               // qulonglong
    IsLastRole,                  // bool
    IsBestRole,                  // bool
    DifferentRole,               // bool: compare rows whose two sides differ
    ProblemKindRole,             // QString: ckpt::ProblemKind as text
    RepairableRole,              // bool: a safe one-click repair exists
    PathRole,                    // QString: file or directory concerned
    NodeKindRole,                // int: RunTreeModel::NodeKind
    ColumnKindRole,              // int: EpochTableModel::ColumnKind (header data)
    MetricNameRole,              // QString: metric of a metric column (header data)
    ExportRole,     // raw value for CSV (double, qulonglong, text); header: machine column name
    RunStateRole,   // int: ckpt::RunState of a launched run (LaunchedRunsModel)
    RemoteHostRole, // QString: the host of a remote folder or run, empty when local
    StaleRole,      // QString: why a remote folder/run is not current ("reconnecting"), else empty
};
} // namespace roles

} // namespace ckpt
