/* A stand-in for Windows' bcryptprimitives.dll, for running tsubame's Windows build under
 * Wine 8.0 in the tests only (it is never shipped: Windows has the real one). Rust's standard
 * library takes its random numbers from ProcessPrng, which Wine 8.0 lacks; this one draws them
 * from RtlGenRandom (advapi32's SystemFunction036), which Wine has. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
