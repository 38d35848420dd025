/* Test-only: holds a file open without sharing it, as an antivirus scanner or a sync client
 * does on Windows, so that the Windows build meets real sharing violations under Wine.
 *
 *   hold_file.exe <path> <milliseconds>
 *
 * Opens <path> for reading and writing with share mode 0, prints "held" on stdout once it
 * has the handle, keeps it for <milliseconds>, then closes it and exits 0 (1 if the open
 * failed, with the Windows error code on stderr). */
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: hold_file <path> <milliseconds>\n");
    return 2;
  }
  HANDLE file = CreateFileA(argv[1], GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                            FILE_ATTRIBUTE_NORMAL, NULL);
  if (file == INVALID_HANDLE_VALUE) {
    fprintf(stderr, "hold_file: cannot open %s: error %lu\n", argv[1], GetLastError());
    return 1;
  }
  printf("held\n");
  fflush(stdout);
  Sleep((DWORD)strtoul(argv[2], NULL, 10));
  CloseHandle(file);
  return 0;
}
