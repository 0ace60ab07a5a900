#include "history/LineProblems.h"

namespace ckpt {

LineProblems::LineProblems(Problems& out, std::string path, std::size_t limit)
    : m_out(out), m_path(std::move(path)), m_limit(limit)
{}

void LineProblems::add(std::size_t line, std::string_view what)
{
    if (m_count++ >= m_limit)
        return;
    Problem p;
    p.kind = ProblemKind::BadLog;
    p.message = m_path + ":" + std::to_string(line) + ": ";
    p.message += what;
    p.path = m_path;
    m_out.push_back(std::move(p));
}

void LineProblems::finish()
{
    if (m_count <= m_limit)
        return;
    Problem p;
    p.kind = ProblemKind::BadLog;
    p.message =
        m_path + ": " + std::to_string(m_count - m_limit) + " more unparseable lines not listed";
    p.path = m_path;
    m_out.push_back(std::move(p));
    m_count = m_limit;
}

} // namespace ckpt
