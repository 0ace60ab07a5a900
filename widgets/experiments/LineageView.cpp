#include "experiments/LineageView.h"

#include "common/DistinctElide.h"
#include "experiments/RunStateStyle.h"
#include "launch/LineageGraph.h"
#include "launch/RunBranches.h"
#include "models/LaunchedRunsModel.h"

#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

namespace ckpt {

namespace {

constexpr double NodeWidth = 150;
constexpr double NodeHeight = 42;
constexpr double ColumnPitch = NodeWidth + 190;
constexpr double MinRowPitch = 84;
constexpr double LabelWidth = 175;
constexpr int LabelChanges = 3; // changes listed on an edge; the rest in its tooltip
constexpr int RootKey = 0;

// A rounded box with a state stripe, the run's name and what became of it.
class NodeItem final : public QGraphicsItem
{
public:
    NodeItem(const LineageGraph::Node& node, bool current, const QPalette& palette,
             QStringList names)
        : m_node(node), m_current(current), m_palette(palette), m_names(std::move(names))
    {
        setData(RootKey, QString::fromStdString(node.root));
        setToolTip(QString::fromStdString(node.root));
        setCursor(Qt::PointingHandCursor);
    }
    QRectF boundingRect() const override { return {-2, -2, NodeWidth + 4, NodeHeight + 4}; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        const bool superseded = m_node.supersededAfter.has_value();
        const QColor color =
            m_node.state ? RunStateStyle::color(*m_node.state) : RunStateStyle::neutral();
        p->setRenderHint(QPainter::Antialiasing);
        p->setOpacity(superseded ? 0.55 : 1.0);
        const QRectF box(0, 0, NodeWidth, NodeHeight);
        QPen pen(m_current ? m_palette.color(QPalette::Highlight) : color, m_current ? 2.5 : 1.2);
        if (superseded)
            pen.setStyle(Qt::DashLine);
        p->setPen(pen);
        p->setBrush(m_palette.color(QPalette::Base));
        p->drawRoundedRect(box, 6, 6);
        p->setPen(Qt::NoPen);
        p->setBrush(color);
        p->drawRoundedRect(QRectF(0, 0, 7, NodeHeight), 3, 3);
        QFont bold = p->font();
        bold.setBold(true);
        p->setFont(bold);
        p->setPen(m_palette.color(QPalette::Text));
        const QRectF text = box.adjusted(14, 5, -6, -5);
        const QString name = QString::fromStdString(m_node.name);
        // Cut so that what tells it from the graph's other runs stays.
        p->drawText(text, Qt::AlignLeft | Qt::AlignTop,
                    DistinctElide::elide(name, m_names, int(text.width()), QFontMetrics(bold)));
        QFont small = p->font();
        small.setBold(false);
        small.setPointSizeF(small.pointSizeF() * 0.9);
        p->setFont(small);
        p->setPen(m_palette.color(QPalette::PlaceholderText));
        QString sub;
        if (superseded)
            sub = QObject::tr("superseded after e%1").arg(*m_node.supersededAfter);
        else if (m_node.state)
            sub = RunStateStyle::label(*m_node.state);
        else
            sub = QObject::tr("not launched here");
        if (m_node.generation > 0)
            sub += QObject::tr(" · gen %1").arg(m_node.generation + 1);
        p->drawText(text, Qt::AlignLeft | Qt::AlignBottom, sub);
    }

private:
    LineageGraph::Node m_node;
    bool m_current;
    QPalette m_palette;
    QStringList m_names; // every node's, to keep what tells them apart
};

QPointF nodeOrigin(const LineageGraph::Node& n, double rowPitch)
{
    return {n.column * ColumnPitch, n.row * rowPitch};
}

// The lines of an edge's label: the epoch and mode, then one change a line.
QStringList labelLines(const LineageGraph::Link& l, const QFontMetrics& fm)
{
    const QString mode =
        l.mode == LaunchPlan::Mode::Restart ? LineageView::tr("restart") : LineageView::tr("fork");
    QStringList lines{QStringLiteral("e%1 · %2").arg(l.epoch).arg(mode)};
    const QStringList changes =
        QString::fromStdString(l.changes).split(QStringLiteral(", "), Qt::SkipEmptyParts);
    for (int i = 0; i < changes.size() && i < LabelChanges; ++i)
        lines << fm.elidedText(changes[i], Qt::ElideRight, int(LabelWidth));
    if (changes.size() > LabelChanges)
        lines << LineageView::tr("+%1 more").arg(changes.size() - LabelChanges);
    if (changes.isEmpty())
        lines << LineageView::tr("no parameter changed");
    return lines;
}

} // namespace

LineageView::LineageView(QWidget* parent)
    : QGraphicsView(parent), m_scene(new QGraphicsScene(this)),
      m_graph(std::make_unique<LineageGraph>())
{
    setScene(m_scene);
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Click a run to select it; Ctrl+wheel or +/- zooms, 0 fits"));
}

LineageView::~LineageView() = default;

void LineageView::setModel(LaunchedRunsModel* model)
{
    m_model = model;
    connect(model, &LaunchedRunsModel::lineageChanged, this, &LineageView::rebuild);
    rebuild();
}

void LineageView::setCurrentRun(const QString& root)
{
    if (root == m_current)
        return;
    m_current = root;
    rebuild();
}

void LineageView::rebuild()
{
    std::vector<LineageGraph::RunInfo> runs;
    std::vector<LineageEdge> edges;
    if (m_model) {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const QString root = m_model->rootAt(row);
            runs.push_back(
                {root.toStdString(), m_model->nameOf(root).toStdString(), m_model->stateAt(row)});
        }
        edges = m_model->edges();
    }
    // Runs only the edges name (a parent never launched from here) by the
    // model's names too, told apart from the listed ones.
    *m_graph = LineageGraph::build(edges, runs, [this](const std::string& root) {
        return m_model ? m_model->nameOf(QString::fromStdString(root)).toStdString()
                       : RunBranches::displayName(root);
    });
    m_scene->clear();
    const QPalette pal = palette();
    QFont labelFont = font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.9);
    const QFontMetrics fm(labelFont);
    // A label hangs below a descending edge and above a straight one: two of
    // them, plus a margin, fit between two rows.
    qsizetype tallest = 0;
    for (const LineageGraph::Link& l : m_graph->links)
        tallest = std::max(tallest, labelLines(l, fm).size());
    m_rowPitch = std::max(MinRowPitch, 2.0 * (double(tallest) * fm.lineSpacing() + 6) + 8);
    for (const LineageGraph::Link& l : m_graph->links) {
        const auto& a = m_graph->nodes[std::size_t(l.from)];
        const auto& b = m_graph->nodes[std::size_t(l.to)];
        const QPointF from = nodeOrigin(a, m_rowPitch) + QPointF(NodeWidth, NodeHeight / 2);
        const QPointF to = nodeOrigin(b, m_rowPitch) + QPointF(0, NodeHeight / 2);
        QPainterPath path(from);
        const double dx = (to.x() - from.x()) / 2;
        path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
        // Restarts in the text colour, forks a little lighter: both readable on
        // light and dark palettes.
        QColor colour = pal.color(QPalette::Text);
        if (l.mode == LaunchPlan::Mode::Fork)
            colour.setAlphaF(0.55);
        QPen pen(colour, 1.5);
        auto* edge = m_scene->addPath(path, pen);
        edge->setZValue(-1);
        QPolygonF arrow;
        arrow << to << to + QPointF(-8, -4) << to + QPointF(-8, 4);
        m_scene->addPolygon(arrow, Qt::NoPen, pen.color())->setZValue(-1);
        // The label sits along the edge's last stretch, before the child: the
        // epoch, then one change a line.
        const QString mode = l.mode == LaunchPlan::Mode::Restart ? tr("restart") : tr("fork");
        const QStringList lines = labelLines(l, fm);
        auto* label = m_scene->addSimpleText(lines.join(QLatin1Char('\n')), labelFont);
        label->setData(RootKey + 1, QString::fromStdString(l.label));
        label->setBrush(pal.color(QPalette::Text));
        label->setToolTip(mode + QLatin1Char(' ') + QString::fromStdString(l.label));
        const double lx = to.x() - 14 - label->boundingRect().width();
        // Above a straight edge; below one that comes down to its child (the
        // curve stays above the child's line there).
        const double ly =
            to.y() > from.y() + 1 ? to.y() + 6 : to.y() - label->boundingRect().height() - 6;
        label->setPos(std::max(from.x() + 8, lx), ly);
    }
    QStringList names;
    for (const LineageGraph::Node& n : m_graph->nodes)
        names << QString::fromStdString(n.name);
    for (const LineageGraph::Node& n : m_graph->nodes) {
        auto* item = new NodeItem(
            n, !m_current.isEmpty() && QString::fromStdString(n.root) == m_current, pal, names);
        item->setPos(nodeOrigin(n, m_rowPitch));
        m_scene->addItem(item);
    }
    if (m_graph->nodes.empty()) {
        auto* hint = m_scene->addSimpleText(tr("No runs launched yet: restart or fork one from "
                                               "an epoch (Epoch menu)."));
        hint->setBrush(pal.color(QPalette::PlaceholderText));
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-12, -12, 12, 12));
    if (m_autoFit)
        zoomToFit();
}

QStringList LineageView::linkLabels() const
{
    QStringList out;
    for (const QGraphicsItem* item : m_scene->items(Qt::AscendingOrder))
        if (const QVariant label = item->data(RootKey + 1); label.isValid())
            out << label.toString();
    return out;
}

QPoint LineageView::nodePosition(const QString& root) const
{
    int best = -1;
    for (std::size_t i = 0; i < m_graph->nodes.size(); ++i)
        if (QString::fromStdString(m_graph->nodes[i].root) == root)
            best = int(i);
    if (best < 0)
        return {};
    const QPointF centre = nodeOrigin(m_graph->nodes[std::size_t(best)], m_rowPitch) +
                           QPointF(NodeWidth / 2, NodeHeight / 2);
    return mapFromScene(centre);
}

void LineageView::zoomToFit()
{
    const QRectF r = m_scene->sceneRect();
    if (r.isEmpty() || viewport()->width() < 10)
        return;
    const double s =
        std::min({1.0, viewport()->width() / r.width(), viewport()->height() / r.height()});
    // Smaller than this the labels cannot be read: scroll instead.
    const double fit = std::max(s, 0.65);
    setTransform(QTransform::fromScale(fit, fit));
}

void LineageView::zoomBy(double factor)
{
    m_autoFit = false;
    const double now = transform().m11();
    const double next = std::clamp(now * factor, 0.2, 3.0);
    scale(next / now, next / now);
}

QString LineageView::rootAt(const QPoint& pos) const
{
    for (QGraphicsItem* item = itemAt(pos); item; item = item->parentItem())
        if (const QVariant root = item->data(RootKey); root.isValid())
            return root.toString();
    return {};
}

void LineageView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        if (const QString root = rootAt(event->pos()); !root.isEmpty()) {
            emit runClicked(root);
            event->accept();
            return;
        }
    }
    QGraphicsView::mousePressEvent(event);
}

void LineageView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (rootAt(event->pos()).isEmpty()) {
        m_autoFit = true;
        zoomToFit();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void LineageView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(std::pow(1.0015, event->angleDelta().y()));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void LineageView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        return;
    case Qt::Key_Minus:
        zoomBy(0.8);
        return;
    case Qt::Key_0:
        m_autoFit = true;
        zoomToFit();
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void LineageView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        zoomToFit();
}

} // namespace ckpt
