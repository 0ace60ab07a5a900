#pragma once

#include "model/KeyValues.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace ckpt {

class JsonWriter;

// An epoch's record (its KeyValues) as RunJson writes it, streamed without a
// document: the same bytes as RunJson::metadataToJson(...).dump(), copied out
// as the record holds them where it is canonical. Split from RunJson, which
// writes the rest of a run around it.
class RecordJson
{
public:
    // The doubles of a canonical record, as it holds them: the text DoubleText
    // writes for each (the record's promise), so a number of the epoch equal to
    // one of them is written by copying its text rather than formatting it
    // again (an epoch's metrics and elapsed time are its record's numbers).
    struct Doubles
    {
        static constexpr std::size_t kMax = 4;
        std::string_view text[kMax];
        std::size_t count = 0;

        void note(std::string_view value);
    };

    // `raw` gets what metadataToJson(metadata, &raw) puts there: the text as
    // written of each value the output does not give back (made only when there
    // is something to put: most records give every value back). `doubles`
    // (when given) gets the doubles of a canonical record.
    static void write(JsonWriter& w, const KeyValues& metadata,
                      std::optional<nlohmann::ordered_json>& raw, Doubles* doubles = nullptr);
    // `value` as JsonWriter::number writes it, by copying one of `known` when
    // it is the same double.
    static void writeNumber(JsonWriter& w, double value, const Doubles& known);

    // The value with non-finite numbers, at any depth, as null.
    static nlohmann::ordered_json finiteOnly(const nlohmann::ordered_json& v);
    static bool isAscii(std::string_view text);
};

} // namespace ckpt
