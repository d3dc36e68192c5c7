-- wrk script for accounts-overhead.sh: POST a JSON body with a bearer key (BENCH_BODY, BENCH_KEY).
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
