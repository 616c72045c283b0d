a<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" sourcelanguage="en_US">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../mainwindow.ui" line="14"/>
        <source>Open a file from the disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) deleted</source>
        <comment>status bar</comment>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Save the document?</source>
        <translation type="unfinished">Dokument speichern?</translation>
    </message>
    <message>
        <source>Close the window</source>
        <translation type="vanished"></translation>
    </message>
    <message>
        <source>Print the page</source>
    </message>
</context>
</TS>
