/* Test-only stand-in for Windows' bcryptprimitives.dll under Wine 8, which lacks ProcessPrng
 * (Rust's standard library asks for it since 1.78). Never shipped: the tests put it next to
 * the Windows binary they run under Wine. ProcessPrng fills the buffer from RtlGenRandom. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
