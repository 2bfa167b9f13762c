// libxkbcommon, seen only by the input actions: key names, keysyms and characters.
#include <xkbcommon/xkbcommon.h>
