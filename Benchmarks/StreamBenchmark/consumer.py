# A stream consumer that notes when each line arrived: "TIME_US RECEIVED_US PHASE" per
# line, CLOCK_MONOTONIC in microseconds (libinput's clock), to the file in $1.
import json, sys, time

log = open(sys.argv[1], "w")
for line in sys.stdin:
    received = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    event = json.loads(line)
    log.write(f'{event["time_us"]} {received} {event["phase"]}\n')
log.close()
