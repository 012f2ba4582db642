<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>QObject</name>
    <message numerus="yes">
        <location filename="../app/desktop/plan_commands.cpp" line="+14"/>
        <source>Move %n ops to %1</source>
        <translation>
            <numerusform>Move %n op to %1</numerusform>
            <numerusform>Move %n ops to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::DeviceLegend</name>
    <message numerus="yes">
        <location filename="../widgets/panels/device_legend.cpp" line="+53"/>
        <source>%Ln ops</source>
        <translation>
            <numerusform>%Ln op</numerusform>
            <numerusform>%Ln ops</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::Document</name>
    <message numerus="yes">
        <location filename="../app/desktop/document.cpp" line="+358"/>
        <source>Running %n baselines…</source>
        <translation>
            <numerusform>Running %n baseline…</numerusform>
            <numerusform>Running %n baselines…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/desktop/optimize_document.cpp" line="+125"/>
        <source>Optimizer (%1, stopped after %n iteration(s))</source>
        <translation>
            <numerusform>Optimizer (%1, stopped after %n iteration)</numerusform>
            <numerusform>Optimizer (%1, stopped after %n iterations)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Optimizer (%1, %n iteration(s))</source>
        <translation>
            <numerusform>Optimizer (%1, %n iteration)</numerusform>
            <numerusform>Optimizer (%1, %n iterations)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::HistoryPanel</name>
    <message numerus="yes">
        <location filename="../widgets/panels/history_panel.cpp" line="+125"/>
        <source>#%1 vs #%2: %3 ms (%4 %), %Ln ops moved</source>
        <translation>
            <numerusform>#%1 vs #%2: %3 ms (%4 %), %Ln op moved</numerusform>
            <numerusform>#%1 vs #%2: %3 ms (%4 %), %Ln ops moved</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::MainWindow</name>
    <message numerus="yes">
        <location filename="../app/desktop/main_window.cpp" line="+278"/>
        <source>%n op(s) placed differently in “%1” and “%2” are outlined in the graph</source>
        <translation>
            <numerusform>%n op placed differently in “%1” and “%2” is outlined in the graph</numerusform>
            <numerusform>%n ops placed differently in “%1” and “%2” are outlined in the graph</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>%Ln op(s)</source>
        <translation>
            <numerusform>%Ln op</numerusform>
            <numerusform>%Ln ops</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::TimelineView</name>
    <message numerus="yes">
        <location filename="../widgets/timeline/timeline_view.cpp" line="+256"/>
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
</TS>
