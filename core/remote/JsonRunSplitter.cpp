#include "remote/JsonRunSplitter.h"

namespace ckpt {

std::vector<std::string> JsonRunSplitter::feed(std::string_view chunk)
{
    std::vector<std::string> done;
    for (const char c : chunk) {
        if (!m_inRuns && !m_closed)
            m_rest += c;
        const bool inRun = m_inRuns && m_depth >= 3;
        if (inRun)
            m_run += c;
        if (m_inString) {
            if (m_escape)
                m_escape = false;
            else if (c == '\\')
                m_escape = true;
            else if (c == '"')
                m_inString = false;
            else if (m_depth == 1)
                m_string += c;
            continue;
        }
        switch (c) {
        case '"':
            m_inString = true;
            if (m_depth == 1)
                m_string.clear();
            break;
        case ':':
            if (m_depth == 1)
                m_key = m_string;
            break;
        case '{':
        case '[':
            ++m_depth;
            if (m_depth == 2 && c == '[' && m_key == "runs")
                m_inRuns = true;
            if (m_inRuns && m_depth == 3 && c == '{')
                m_run.assign(1, c);
            break;
        case '}':
        case ']':
            if (m_inRuns && m_depth == 3 && c == '}') {
                done.push_back(std::move(m_run));
                m_run.clear();
            }
            if (m_depth == 2 && m_inRuns) {
                m_inRuns = false;
                m_rest += c;
            }
            --m_depth;
            if (m_depth == 0)
                m_closed = true;
            break;
        default:
            break;
        }
    }
    return done;
}

} // namespace ckpt
