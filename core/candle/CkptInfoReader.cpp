#include "candle/CkptInfoReader.h"

#include "io/AtomicFile.h"
#include "json/LenientJson.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace ckpt {

namespace {

using Json = nlohmann::ordered_json;

std::string typeName(const Json& v)
{
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case Json::value_t::string:
        return "the string \"" + v.get_ref<const std::string&>() + "\"";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
        return "the number " + v.dump();
    case Json::value_t::array:
        return "an array";
    case Json::value_t::object:
        return "an object";
    default:
        return "an unsupported value";
    }
}

// Reads one key; a wrong type becomes an Error naming the file and the key.
class Fields
{
public:
    Fields(const Json& object, std::string_view origin) : m_object(object), m_origin(origin) {}

    const Json* find(const char* key) const
    {
        auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }

    Error wrongType(const char* key, const Json& v, const char* expected) const
    {
        return Error::at(std::string(m_origin), std::string("key \"") + key + "\": expected " +
                                                    expected + ", found " + typeName(v));
    }

private:
    const Json& m_object;
    std::string_view m_origin;
};

// A number, or a string holding one (some hand-written and converted files quote them).
Status readDouble(const Fields& f, const Json* v, const char* key, std::optional<double>& out)
{
    if (!v || v->is_null())
        return {};
    if (v->is_number()) {
        out = v->get<double>();
        return {};
    }
    if (v->is_string()) {
        if (auto d = CkptInfoReader::numberFromText(v->get_ref<const std::string&>())) {
            out = d;
            return {};
        }
    }
    return f.wrongType(key, *v, "a number");
}

Status readInt(const Fields& f, const Json* v, const char* key, std::optional<int>& out)
{
    if (!v || v->is_null())
        return {};
    std::optional<double> d;
    if (v->is_number_integer()) {
        const auto i = v->get<std::int64_t>();
        if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max()) {
            out = static_cast<int>(i);
            return {};
        }
    } else if (!readDouble(f, v, key, d).ok() || !d) {
        return f.wrongType(key, *v, "an integer");
    } else if (std::isfinite(*d) && std::floor(*d) == *d && std::fabs(*d) < 2147483647.0) {
        out = static_cast<int>(*d);
        return {};
    }
    return f.wrongType(key, *v, "an integer");
}

Status readString(const Fields& f, const Json* v, const char* key, std::optional<std::string>& out)
{
    if (!v || v->is_null())
        return {};
    if (v->is_string()) {
        out = v->get<std::string>();
        return {};
    }
    return f.wrongType(key, *v, "a string");
}

// Checksums are decimal strings, but a writer that forgot str() gives a number.
Status readChecksum(const Fields& f, const Json* v, const char* key,
                    std::optional<std::string>& out)
{
    if (v && (v->is_number_unsigned() || (v->is_number_integer() && v->get<std::int64_t>() >= 0))) {
        out = std::to_string(v->get<std::uint64_t>());
        return {};
    }
    return readString(f, v, key, out);
}

Status readElapsed(const Fields& f, const Json* v, CkptInfo& info)
{
    if (v && v->is_string() && v->get_ref<const std::string&>() == "__FIRST__") {
        info.firstSave = true;
        return {};
    }
    return readDouble(f, v, "time_elapsed", info.timeElapsed);
}

// Free text by intent; anything else is shown as its JSON rather than refused.
void readMetadata(const Json* v, std::optional<std::string>& out)
{
    if (!v || v->is_null())
        return;
    out = v->is_string() ? v->get<std::string>() : v->dump();
}

} // namespace

Result<CkptInfo> CkptInfoReader::parse(std::string_view text, std::string_view origin)
{
    auto parsed = LenientJson::parse(text, origin);
    if (!parsed)
        return parsed.error();
    Json& object = parsed.value();
    if (!object.is_object())
        return Error::at(std::string(origin),
                         "expected a JSON object ({...}), found " + typeName(object));
    const Fields f(object, origin);
    CkptInfo info;
    Status st;
    const auto check = [&](Status s) {
        if (st && !s)
            st = std::move(s);
    };
    check(readInt(f, f.find("epoch"), "epoch", info.epoch));

    // The oldest writer: save_best_stat / best_stat_last / checksum_model, and
    // save_best_only telling whether "best" was tracked at all.
    if (const Json* metric = f.find("save_best_metric"))
        check(readString(f, metric, "save_best_metric", info.saveBestMetric));
    else if (const Json* stat = f.find("save_best_stat"))
        check(readString(f, stat, "save_best_stat", info.saveBestMetric));
    if (const Json* only = f.find("save_best_only"); only && !f.find("save_best_metric")) {
        if (only->is_boolean() && !only->get<bool>())
            info.saveBestMetric.reset();
        else if (!only->is_boolean() && !only->is_null() && !only->is_number())
            check(f.wrongType("save_best_only", *only, "true or false"));
    }
    if (const Json* last = f.find("best_metric_last"))
        check(readDouble(f, last, "best_metric_last", info.bestMetricLast));
    else
        check(readDouble(f, f.find("best_stat_last"), "best_stat_last", info.bestMetricLast));

    check(readString(f, f.find("model_file"), "model_file", info.modelFile));
    if (const Json* sum = f.find("checksum"))
        check(readChecksum(f, sum, "checksum", info.checksum));
    else
        check(readChecksum(f, f.find("checksum_model"), "checksum_model", info.checksum));
    check(readString(f, f.find("timestamp"), "timestamp", info.timestamp));
    check(readElapsed(f, f.find("time_elapsed"), info));
    readMetadata(f.find("metadata"), info.metadata);
    if (!st)
        return st.error();
    info.raw = std::move(object);
    return info;
}

std::optional<double> CkptInfoReader::numberFromText(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    // Python's own spellings as well as what str(float) gives.
    if (s == "Infinity" || s == "inf" || s == "+inf" || s == "+Infinity")
        return std::numeric_limits<double>::infinity();
    if (s == "-Infinity" || s == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (s == "NaN" || s == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    double d = 0.0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec != std::errc() || ptr != s.data() + s.size() || s.empty())
        return std::nullopt;
    return d;
}

std::optional<std::string> CkptInfoReader::modelFileProblem(std::string_view modelFile)
{
    // Named only when there is a problem: a scan asks this of every epoch.
    const auto quoted = [&] { return "model_file \"" + LenientJson::validUtf8(modelFile) + "\""; };
    if (modelFile.empty())
        return quoted() + " is empty";
    if (modelFile.find('\0') != std::string_view::npos)
        return quoted() + " contains a NUL byte";
    if (modelFile.front() == '/')
        return quoted() + " is an absolute path, outside the epoch directory: not followed";
    std::size_t start = 0;
    while (start <= modelFile.size()) {
        const std::size_t slash = std::min(modelFile.find('/', start), modelFile.size());
        if (modelFile.substr(start, slash - start) == "..")
            return quoted() + " climbs out of the epoch directory (\"..\"): not followed";
        start = slash + 1;
    }
    return std::nullopt;
}

Result<CkptInfo> CkptInfoReader::readFile(const std::filesystem::path& path)
{
    auto text = ckpt::readFile(path, RegularFile::kMetadataLimit);
    if (!text)
        return text.error();
    return parse(text.value(), path.string());
}

} // namespace ckpt
