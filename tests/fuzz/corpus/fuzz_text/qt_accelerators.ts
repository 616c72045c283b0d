a<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1">
<context>
    <name>Menu</name>
    <message>
        <source>&amp;Open File...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fish &amp;&amp; &amp;Chips &lt;b&gt;now&lt;/b&gt;</source>
        <translation type="unfinished"/>
    </message>
</context>
</TS>
