#pragma once

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTreeView;

namespace ckpt {

class RunTreeModel;

// The run tree (folder > run) with badges, or a hint to drop folders while
// nothing is open. Selecting runs (several with Ctrl/Shift, or a folder for all
// its runs) chooses what the table and the plot show.
class RunSidebar final : public QWidget
{
    Q_OBJECT
public:
    explicit RunSidebar(QWidget* parent = nullptr);

    void setModel(RunTreeModel* model);
    QTreeView* view() const { return m_view; }
    QStringList selectedRuns() const;
    void selectRuns(const QStringList& roots);
    void setEmptyHint(const QString& text);
    void setContextActions(const QList<QAction*>& actions);

    QByteArray saveState() const;
    void restoreState(const QByteArray& state);

signals:
    void selectedRunsChanged(const QStringList& roots);

private:
    void updatePage();

    RunTreeModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy;
    QStackedWidget* m_stack;
    QTreeView* m_view;
    QLabel* m_hint;
};

} // namespace ckpt
