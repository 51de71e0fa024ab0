// Plain words for the ids the model computes with: step-time terms ("tp_comm"), wall-time terms
// ("spot_interruptions"), bill items ("instance.capacity_block.idle") and scenario fields
// ("pricing.mix[0]"). The page, the text report and the exports meant for people show these
// labels; JSON and the id columns of CSV keep the ids.
#pragma once

#include <string>
#include <vector>

namespace tc {

// "tensor-parallel collectives", "Capacity Block, unused tail", "pricing mix, entry 1". An id
// this table does not know is still shown without its punctuation ("some_new.term" -> "some new
// term"), never raw.
std::string plain_label(const std::string& id);

// The mix entries of one commitment, for messages: "pricing mix, entry 1" or "pricing mix,
// entries 1 and 3" (0-based indices in).
std::string mix_entries_label(const std::vector<std::size_t>& entries);

}  // namespace tc
