#include "common/load_status.h"

namespace sinew::loader {

void LoadStatus::Free() noexcept { delete error_; }

}  // namespace sinew::loader
