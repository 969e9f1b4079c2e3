; ramvram's Windows installer, built with NSIS 3 (Debian's `makensis`, package nsis) by
; packaging/windows/build-installer.sh (packaging/windows/check-installer.sh checks it under Wine):
;
;   makensis -V2 -DVERSION=0.1.0 -DEXE=path\to\ramvram.exe -DOUTFILE=ramvram-0.1.0-x64-setup.exe \
;     -DROOT=repository-root packaging/windows/installer.nsi
;
; Installs ramvram.exe, the README and the fonts' licences into Program Files\ramvram, a
; Start-menu shortcut for all users, and an uninstaller registered in Add/Remove Programs
; (Settings > Apps). English and Simplified Chinese (Modern UI 2); the language is asked
; once, or given as `/LANG=1033` (English) or `/LANG=2052` (Simplified Chinese); a silent
; install without /LANG takes the system's UI language when it is one of the two, else English.
; Silent: `setup.exe /S [/LANG=2052] [/D=C:\other\folder]` (/D last); `uninstall.exe /S`.
;
; Nothing from the test tree goes in: the stand-in bcryptprimitives.dll that the Wine tests
; use (tests/wine/) is never packaged.

Unicode true
; 64-bit stub: Wine on Debian runs 64-bit programs only (no wine32), and ramvram is x64 only.
Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma

!ifndef VERSION
  !error "makensis -DVERSION=x.y.z: the version is required"
!endif
!ifndef EXE
  !error "makensis -DEXE=path/to/ramvram.exe: the program is required"
!endif
!ifndef ROOT
  !define ROOT "..\.."
!endif
!ifndef OUTFILE
  !define OUTFILE "ramvram-${VERSION}-x64-setup.exe"
!endif

!define PRODUCT "ramvram"
!define PUBLISHER "The ramvram authors"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\ramvram"

Name "ramvram ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\ramvram"
InstallDirRegKey HKLM "${UNINSTALL_KEY}" "InstallLocation"
RequestExecutionLevel admin
BrandingText "ramvram ${VERSION}"

VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=0 "ProductName" "ramvram"
VIAddVersionKey /LANG=0 "FileDescription" "ramvram installer"
VIAddVersionKey /LANG=0 "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=0 "LegalCopyright" "${PUBLISHER}. MIT OR Apache-2.0"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"

!include "MUI2.nsh"
!include "x64.nsh"
!include "FileFunc.nsh"

!define MUI_ICON "${ROOT}\packaging\windows\ramvram.ico"
!define MUI_UNICON "${ROOT}\packaging\windows\ramvram.ico"
!define MUI_ABORTWARNING
; The language asked is remembered for the uninstaller.
!define MUI_LANGDLL_REGISTRY_ROOT HKLM
!define MUI_LANGDLL_REGISTRY_KEY "${UNINSTALL_KEY}"
!define MUI_LANGDLL_REGISTRY_VALUENAME "InstallerLanguage"
!define MUI_FINISHPAGE_RUN "$INSTDIR\ramvram.exe"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"
!insertmacro MUI_RESERVEFILE_LANGDLL

LangString SHORTCUT_DESC ${LANG_ENGLISH} "RAM·VRAM Advisor: can this machine's RAM keep its GPUs fed?"
LangString SHORTCUT_DESC ${LANG_SIMPCHINESE} "内存·显存顾问：这台机器的内存能否喂饱它的 GPU？"
LangString NEEDS_64BIT ${LANG_ENGLISH} "ramvram needs 64-bit Windows (x64)."
LangString NEEDS_64BIT ${LANG_SIMPCHINESE} "ramvram 需要 64 位 Windows（x64）。"

Function .onInit
  ${IfNot} ${RunningX64}
    MessageBox MB_OK|MB_ICONSTOP "$(NEEDS_64BIT)" /SD IDOK
    Abort
  ${EndIf}
  SetRegView 64
  ; /LANG=1033 or /LANG=2052 chooses the language; else it is asked (not when silent).
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/LANG=" $R1
  ${If} ${Errors}
    !insertmacro MUI_LANGDLL_DISPLAY
  ${ElseIf} $R1 == ${LANG_ENGLISH}
  ${OrIf} $R1 == ${LANG_SIMPCHINESE}
    StrCpy $LANGUAGE $R1
  ${Else}
    !insertmacro MUI_LANGDLL_DISPLAY
  ${EndIf}
FunctionEnd

Function un.onInit
  SetRegView 64
  !insertmacro MUI_UNGETLANGUAGE
FunctionEnd

Section "ramvram" SecMain
  SectionIn RO
  SetShellVarContext all
  SetOutPath "$INSTDIR"
  File "/oname=ramvram.exe" "${EXE}"
  File "/oname=README.md" "${ROOT}\README.md"
  File "/oname=OFL-font.txt" "${ROOT}\assets\fonts\OFL.txt"
  File "/oname=OFL-ramvram-sans.txt" "${ROOT}\assets\fonts\OFL-ramvram-sans.txt"
  File "/oname=OFL-ramvram-mono.txt" "${ROOT}\assets\fonts\OFL-ramvram-mono.txt"
  File "/oname=ramvram.ico" "${ROOT}\packaging\windows\ramvram.ico"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortcut "$SMPROGRAMS\ramvram.lnk" "$INSTDIR\ramvram.exe" "" "$INSTDIR\ramvram.ico" 0 \
    SW_SHOWNORMAL "" "$(SHORTCUT_DESC)"

  ; The uninstaller speaks the installer's language (MUI_UNGETLANGUAGE reads it).
  WriteRegStr HKLM "${UNINSTALL_KEY}" "InstallerLanguage" $LANGUAGE
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayName" "ramvram ${VERSION}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\ramvram.ico"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoRepair" 1
  SectionGetSize ${SecMain} $0
  WriteRegDWORD HKLM "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

Section "Uninstall"
  SetShellVarContext all
  Delete "$SMPROGRAMS\ramvram.lnk"
  Delete "$INSTDIR\ramvram.exe"
  Delete "$INSTDIR\README.md"
  Delete "$INSTDIR\OFL-font.txt"
  Delete "$INSTDIR\OFL-ramvram-sans.txt"
  Delete "$INSTDIR\OFL-ramvram-mono.txt"
  Delete "$INSTDIR\ramvram.ico"
  Delete "$INSTDIR\uninstall.exe"
  ; Only an empty folder is removed: files a user put there stay.
  RMDir "$INSTDIR"
  DeleteRegKey HKLM "${UNINSTALL_KEY}"
SectionEnd
