#include "keras/SynalinksVariables.h"

#include "io/RegularFile.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

namespace ckpt {

using Json = nlohmann::json;

// At namespace scope, not nested in SynalinksSax: clang 14 does not see a nested
// struct with default member initialisers as default-constructible inside its
// enclosing class (std::optional::emplace() does not compile).
struct SynalinksSaxArray
{
    std::size_t depth = 0;
    std::size_t objects = 0; // objects open inside the array: skipped
    std::vector<std::uint64_t> counts;
    std::vector<std::optional<std::uint64_t>> shape;
    std::optional<std::size_t> leafDepth;
    std::size_t start = 0;
    bool numeric = true;
};

// Walks the state tree once and keeps the numbers only. Objects push a path
// level; an array opened at a field collects its numbers while it stays
// rectangular (every row of a level the same length, numbers only at the
// deepest level); anything else in it (text, objects) makes it a text field.
class SynalinksSax final : public nlohmann::json_sax<Json>
{
public:
    explicit SynalinksSax(SynalinksVariables& out) : m_out(out) {}

    std::string error;

    bool null() override { return leafText(); }
    bool boolean(bool) override { return leafText(); }
    bool number_integer(number_integer_t v) override { return number(double(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(double(v)); }
    bool number_float(number_float_t v, const string_t&) override { return number(v); }
    bool string(string_t&) override { return leafText(); }
    bool binary(binary_t&) override { return leafText(); }

    bool start_object(std::size_t) override
    {
        if (m_array) {
            m_array->numeric = false;
            ++m_array->objects;
            return true;
        }
        m_path.emplace_back();
        return true;
    }
    bool key(string_t& k) override
    {
        if (m_array)
            return true;
        if (m_path.size() == 1 && (m_out.m_groups.empty() || m_out.m_groups.back() != k))
            m_out.m_groups.push_back(k);
        m_path.back() = k;
        return true;
    }
    bool end_object() override
    {
        if (m_array) {
            --m_array->objects;
            return true;
        }
        m_path.pop_back();
        return true;
    }
    bool start_array(std::size_t) override
    {
        if (!m_array) {
            m_array.emplace();
            m_array->start = m_out.m_values.size();
        } else if (m_array->objects > 0) {
            return true;
        } else {
            if (m_array->leafDepth && *m_array->leafDepth < m_array->depth + 1)
                m_array->numeric = false;
            ++m_array->counts[m_array->depth - 1];
        }
        ++m_array->depth;
        if (m_array->counts.size() < m_array->depth)
            m_array->counts.push_back(0);
        m_array->counts[m_array->depth - 1] = 0;
        return true;
    }
    bool end_array() override
    {
        if (m_array->objects > 0)
            return true;
        const std::size_t level = m_array->depth - 1;
        const std::uint64_t n = m_array->counts[level];
        if (m_array->shape.size() <= level)
            m_array->shape.resize(level + 1);
        if (!m_array->shape[level])
            m_array->shape[level] = n;
        else if (*m_array->shape[level] != n)
            m_array->numeric = false;
        if (--m_array->depth == 0)
            return finishArray();
        return true;
    }
    bool parse_error(std::size_t at, const std::string&,
                     const nlohmann::detail::exception& e) override
    {
        error = "not valid JSON at byte " + std::to_string(at) + " (" + e.what() + ")";
        return false;
    }

private:
    std::string name() const
    {
        std::string out;
        for (const auto& p : m_path)
            out += (out.empty() ? "" : "/") + p;
        return out;
    }

    bool leafText()
    {
        if (m_array) {
            if (m_array->objects == 0)
                ++m_array->counts[m_array->depth - 1];
            m_array->numeric = false;
            return true;
        }
        ++m_out.m_textFields;
        return true;
    }

    bool push(double v)
    {
        if (m_out.m_values.size() >= SynalinksVariables::kMaxElements) {
            error = "holds more than " + std::to_string(SynalinksVariables::kMaxElements) +
                    " numbers, over what this version reads";
            return false;
        }
        m_out.m_values.push_back(v);
        return true;
    }

    bool number(double v)
    {
        if (!m_array) {
            add(name(), {});
            return push(v);
        }
        if (m_array->objects > 0)
            return true;
        ++m_array->counts[m_array->depth - 1];
        if (!m_array->leafDepth)
            m_array->leafDepth = m_array->depth;
        else if (*m_array->leafDepth != m_array->depth)
            m_array->numeric = false;
        return !m_array->numeric || push(v);
    }

    bool finishArray()
    {
        SynalinksSaxArray a = std::move(*m_array);
        m_array.reset();
        std::vector<std::uint64_t> shape;
        std::uint64_t elements = 1;
        for (const auto& d : a.shape) {
            shape.push_back(d.value_or(0));
            elements *= d.value_or(0);
        }
        const std::uint64_t got = m_out.m_values.size() - a.start;
        if (!a.numeric || got == 0 || got != elements) {
            m_out.m_values.resize(a.start);
            ++m_out.m_textFields;
            return true;
        }
        m_out.m_offsets.push_back(a.start);
        addInfo(name(), std::move(shape), got);
        return true;
    }

    void add(const std::string& n, std::vector<std::uint64_t> shape)
    {
        m_out.m_offsets.push_back(m_out.m_values.size());
        addInfo(n, std::move(shape), 1);
    }

    void addInfo(const std::string& n, std::vector<std::uint64_t> shape, std::uint64_t elements)
    {
        TensorInfo info;
        info.name = n;
        info.dtype = DType::of(DTypeKind::Float64);
        info.shape = std::move(shape);
        info.elements = elements;
        info.bytes = elements * 8;
        const auto slash = n.rfind('/');
        info.layer = slash == std::string::npos ? n : n.substr(0, slash);
        const std::string top = n.substr(0, n.find('/'));
        info.optimizerState = top.rfind("optimizer", 0) == 0 || top == "metrics_variables";
        m_out.m_tensors.push_back(std::move(info));
    }

    SynalinksVariables& m_out;
    std::vector<std::string> m_path;
    std::optional<SynalinksSaxArray> m_array;
};

bool SynalinksVariables::sniff(std::string_view head, std::string_view fileName)
{
    if (fileName.size() <= kSuffix.size() ||
        fileName.substr(fileName.size() - kSuffix.size()) != kSuffix)
        return false;
    const auto first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && head[first] == '{';
}

TensorFormat SynalinksVariables::tensorFormat()
{
    return TensorFormat{"synalinks", &SynalinksVariables::sniff, &SynalinksVariables::open};
}

Result<std::unique_ptr<TensorSource>> SynalinksVariables::open(const std::string& path)
{
    auto text = RegularFile::read(path, kMaxBytes);
    if (!text)
        return text.error();
    auto source = std::make_unique<SynalinksVariables>();
    source->m_path = path;
    SynalinksSax sax(*source);
    bool ok = false;
    try {
        ok = Json::sax_parse(*text, &sax);
    } catch (const std::exception& e) {
        return Error::at(path, std::string("cannot parse the variables JSON: ") + e.what());
    }
    if (!ok)
        return Error::at(path, (sax.error.empty() ? std::string("not valid JSON") : sax.error) +
                                   ": not a Synalinks variables file this version reads");
    if (source->m_groups.empty())
        return Error::at(path, "expected a JSON object of variable groups "
                               "(\"trainable_variables\", ...) as Program.save_variables writes");
    return std::unique_ptr<TensorSource>(std::move(source));
}

std::vector<std::pair<std::string, std::string>> SynalinksVariables::attributes() const
{
    std::string groups;
    for (const auto& g : m_groups)
        groups += (groups.empty() ? "" : ", ") + g;
    return {{"groups", groups}, {"text_fields", std::to_string(m_textFields)}};
}

Status SynalinksVariables::read(std::size_t index, std::uint64_t first, std::uint64_t count,
                                void* out) const
{
    if (index >= m_tensors.size())
        return Error::at(m_path, "no tensor #" + std::to_string(index));
    const TensorInfo& t = m_tensors[index];
    if (first > t.elements || count > t.elements - first)
        return Error::at(m_path, t.name + ": elements [" + std::to_string(first) + ", +" +
                                     std::to_string(count) + ") are outside its " +
                                     std::to_string(t.elements));
    std::memcpy(out, m_values.data() + m_offsets[index] + first, count * sizeof(double));
    return {};
}

} // namespace ckpt
