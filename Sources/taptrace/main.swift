import ArgumentParser

TapTraceCommand.main()
