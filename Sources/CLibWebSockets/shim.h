#include <libwebsockets.h>
// Macros Swift cannot import are re-exported here as constants.
static const size_t CLWS_PRE = LWS_PRE;
