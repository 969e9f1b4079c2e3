/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, for running ramvram.exe under Wine 8.
 *
 * Rust's standard library (1.78 and later) takes its random bytes from ProcessPrng, which it
 * imports from bcryptprimitives.dll (Windows 10 and later). Wine 8.0 has no such DLL, so a
 * Rust program exits at start ("bcryptprimitives.dll not found"). This one-function DLL answers
 * ProcessPrng with RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 *
 * Built by tests/wine/prefix.sh with x86_64-w64-mingw32-gcc into the test Wine prefix's
 * system32 only. Never shipped: not in the installer, not in any package.
 *
 * ProcessPrng's contract (Microsoft's bcryptprimitives documentation): fills cbData bytes at
 * pbData and always returns TRUE.
 */
#include <windows.h>

/* advapi32's RtlGenRandom, exported under this name (ntsecapi.h). */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData)
{
    /* RtlGenRandom takes a ULONG length: feed larger requests in chunks. */
    while (cbData > 0) {
        ULONG chunk = cbData > 0x10000000u ? 0x10000000u : (ULONG)cbData;
        if (!SystemFunction036(pbData, chunk)) {
            /* ProcessPrng cannot fail; a failure of Wine's generator is fatal. */
            ExitProcess(0xC0000001u);
        }
        pbData += chunk;
        cbData -= chunk;
    }
    return TRUE;
}

/* Entry point (linked with -nostdlib: no C runtime to start). */
BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reason;
    (void)reserved;
    return TRUE;
}
