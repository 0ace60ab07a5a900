#pragma once

#include <QGraphicsView>
#include <QPoint>
#include <QString>

#include <memory>

namespace ckpt {

class LaunchedRunsModel;
struct LineageGraph;

// The family tree of launched runs as a graph, left to right by generation:
// a node per run generation (state colour, name), an edge per launch from an
// epoch labelled "e6: learning_rate 0.01 -> 0.001"; a generation superseded
// by a restart is drawn faded and dashed. Scrolls, zooms (Ctrl+wheel, +/-),
// fits (0 or double-click on empty space); a click on a node emits runClicked.
class LineageView final : public QGraphicsView
{
    Q_OBJECT
public:
    explicit LineageView(QWidget* parent = nullptr);
    ~LineageView() override;

    void setModel(LaunchedRunsModel* model);
    // Highlights the run's nodes.
    void setCurrentRun(const QString& root);
    void zoomToFit();

    const LineageGraph& graph() const { return *m_graph; }
    // The edge labels as drawn (tests, accessibility).
    QStringList linkLabels() const;
    // Where the latest generation of `root` is drawn, in viewport coordinates
    // (a null point when it is not shown).
    QPoint nodePosition(const QString& root) const;

signals:
    void runClicked(const QString& root);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void zoomBy(double factor);
    QString rootAt(const QPoint& pos) const;

    QGraphicsScene* m_scene;
    LaunchedRunsModel* m_model = nullptr;
    std::unique_ptr<LineageGraph> m_graph;
    QString m_current;
    // Rows far enough apart that an edge label below one row and one above the
    // next never overlap (set from the tallest label at each rebuild).
    double m_rowPitch = 84;
    bool m_autoFit = true;
};

} // namespace ckpt
