//===- DynamicSymbols.h - Entry points of a library opened at run time -*- C++
//-*-===//
//
// The GPU devices load their drivers with dlopen (so that everything builds
// and runs without them) and look their entry points up with dlsym; this
// is that lookup, which also collects the names a library lacks.
//
//===----------------------------------------------------------------------===//
#ifndef NAUTILUS_RUNTIME_DYNAMICSYMBOLS_H
#define NAUTILUS_RUNTIME_DYNAMICSYMBOLS_H

#include <dlfcn.h>
#include <string>
#include <type_traits>

namespace nautilus::rt {

/// Sets `fn` to `library`'s `name` (null when it has none, and then `name`
/// is added to the comma-separated `missing`).
template <typename Fn>
void resolveSymbol(void *library, Fn &fn, const char *name,
                   std::string &missing) {
  fn = reinterpret_cast<Fn>(::dlsym(library, name));
  if (!fn)
    missing += (missing.empty() ? "" : ", ") + std::string(name);
}

} // namespace nautilus::rt

#endif // NAUTILUS_RUNTIME_DYNAMICSYMBOLS_H
